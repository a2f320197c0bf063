//! `b2schema man`: one page with every subcommand's synopsis, description and options (clap's
//! default page would point to a `b2schema-inspect(1)` page per subcommand, never generated).

use std::io::{self, Write};

use clap_mangen::Man;

/// The roff page of `cmd` and, under a section each, of its subcommands (theirs below them).
pub fn page(cmd: &clap::Command) -> io::Result<Vec<u8>> {
    let man = Man::new(cmd.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    for sub in cmd.get_subcommands() {
        section(&mut out, cmd.get_name(), sub)?;
    }
    man.render_extra_section(&mut out)?;
    man.render_version_section(&mut out)?;
    Ok(out)
}

/// The section of subcommand `sub` of `parent`: its own sections as subsections.
fn section(out: &mut Vec<u8>, parent: &str, sub: &clap::Command) -> io::Result<()> {
    if sub.is_hide_set() {
        return Ok(());
    }
    let name = format!("{parent} {}", sub.get_name());
    writeln!(out, ".SH \"{}\"", name.to_uppercase())?;
    let man = Man::new(sub.clone().bin_name(name.clone()));
    let mut part = Vec::new();
    man.render_synopsis_section(&mut part)?;
    man.render_description_section(&mut part)?;
    if sub.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut part)?;
    }
    let part = String::from_utf8_lossy(&part);
    for line in part.lines() {
        match line.strip_prefix(".SH ") {
            Some(title) => writeln!(out, ".SS {title}")?,
            None => writeln!(out, "{line}")?,
        }
    }
    for subsub in sub.get_subcommands() {
        section(out, &name, subsub)?;
    }
    Ok(())
}
