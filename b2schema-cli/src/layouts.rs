//! `b2schema layout [NAME]`: the diagrams of the built-in layouts.

use std::process::ExitCode;

use b2schema::b2nd::{B2nd, B2ndDev6, Caterva};
use b2schema::frame::{FilterPipeline, Fingerprint, FrameFlags, FrameHeader, MetaLayers, Trailer};
use b2schema::layout::{self, B2Layout, Layout};

use crate::Failure;

/// Every built-in layout, by the name the command takes.
pub const LAYOUTS: &[(&str, &Layout, &str)] = &[
    ("frame-header", FrameHeader::LAYOUT, "the frame header: 87 fixed bytes, then the metalayers"),
    ("frame-flags", FrameFlags::LAYOUT, "the header's four flag bytes"),
    ("filter-pipeline", FilterPipeline::LAYOUT, "the header's fixext16 filter pipeline"),
    ("metalayers", MetaLayers::<'static, 7>::LAYOUT, "the metalayers section of the header"),
    ("trailer", Trailer::LAYOUT, "the frame trailer and its vlmetalayers"),
    ("fingerprint", Fingerprint::LAYOUT, "the trailer's fixext16 fingerprint"),
    ("b2nd", B2nd::LAYOUT, "the b2nd metalayer (7 elements, current)"),
    ("b2nd-dev6", B2ndDev6::LAYOUT, "the 6-element development b2nd layout (unreadable by c-blosc2)"),
    ("caterva", Caterva::LAYOUT, "the legacy 5-element caterva / b2nd layout"),
];

pub fn run(name: Option<&str>) -> Result<ExitCode, Failure> {
    match name {
        None => {
            let list: String = LAYOUTS.iter().map(|(name, _, what)| format!("{name:<16} {what}\n")).collect();
            crate::print(list.as_bytes())
        }
        Some(n) => match LAYOUTS.iter().find(|(name, _, _)| *name == n) {
            Some((_, l, _)) => crate::print(layout::diagram(l).as_bytes()),
            None => {
                let names: Vec<&str> = LAYOUTS.iter().map(|(n, _, _)| *n).collect();
                Err(Failure::Message(format!("no layout named {n:?}; the layouts are: {}", names.join(", "))))
            }
        },
    }
}
