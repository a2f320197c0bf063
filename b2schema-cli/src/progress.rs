//! A progress bar on stderr for long runs (`pack`, `unpack`), drawn only when stderr is a terminal:
//! `unpack  [#########...........]  45%  120/264 MiB`. Redrawn only when the shown percentage
//! changes, so a run writes at most 101 updates.

use std::io::{self, IsTerminal, Write};

/// Cells of the bar.
const WIDTH: usize = 30;

/// A progress bar writing to `out`, or nothing when disabled.
pub struct Bar<W: Write> {
    out: Option<W>,
    label: &'static str,
    total: u64,
    done: u64,
    shown: Option<u64>,
}

impl Bar<io::Stderr> {
    /// A bar on stderr, drawn only when stderr is a terminal and the run is long (`total` at
    /// least `min` bytes).
    pub fn stderr(label: &'static str, total: u64, min: u64) -> Self {
        let on = io::stderr().is_terminal() && total >= min;
        Bar::new(on.then(io::stderr), label, total)
    }
}

impl<W: Write> Bar<W> {
    /// A bar over `total` units drawn to `out` (`None`: draws nothing).
    pub fn new(out: Option<W>, label: &'static str, total: u64) -> Self {
        Bar { out, label, total, done: 0, shown: None }
    }

    /// `n` more units done; redraws when the percentage changes.
    pub fn add(&mut self, n: u64) {
        self.done = self.done.saturating_add(n).min(self.total);
        let pct = percent(self.done, self.total);
        if self.shown != Some(pct)
            && let Some(out) = &mut self.out
        {
            self.shown = Some(pct);
            // A progress bar that cannot be drawn is not an error of the run.
            let _ = write!(out, "\r{}", render(self.label, self.done, self.total));
            let _ = out.flush();
        }
    }

    /// What the bar drew (`None` when disabled).
    pub fn into_output(self) -> Option<W> {
        self.out
    }

    /// The units of the whole run.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Ends the bar's line (when one was drawn).
    pub fn finish(&mut self) {
        if self.shown.is_some()
            && let Some(out) = &mut self.out
        {
            let _ = writeln!(out);
        }
        self.shown = None;
    }
}

/// `done` of `total` in whole percent (100 for an empty total).
pub fn percent(done: u64, total: u64) -> u64 {
    if total == 0 { 100 } else { (u128::from(done.min(total)) * 100 / u128::from(total)) as u64 }
}

/// `done` of `total` scaled to `of` units (`of` when `total` is 0).
pub fn share(done: u64, total: u64, of: u64) -> u64 {
    if total == 0 { of } else { (u128::from(done.min(total)) * u128::from(of) / u128::from(total)) as u64 }
}

/// One line of the bar.
pub fn render(label: &str, done: u64, total: u64) -> String {
    let pct = percent(done, total);
    let filled = (pct as usize * WIDTH) / 100;
    format!(
        "{label}  [{}{}] {pct:>3}%  {}/{} MiB",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        done >> 20,
        total >> 20
    )
}

/// A writer that counts what goes through it into a [`Bar`].
pub struct Counting<'a, W: Write, B: Write> {
    /// Where the bytes go.
    pub inner: W,
    /// The bar they advance.
    pub bar: &'a mut Bar<B>,
}

impl<W: Write, B: Write> Write for Counting<'_, W, B> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bar.add(n as u64);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_bar_fills_with_the_work() {
        assert_eq!(render("unpack", 0, 4 << 20), format!("unpack  [{}]   0%  0/4 MiB", ".".repeat(30)));
        assert_eq!(
            render("unpack", 2 << 20, 4 << 20),
            format!("unpack  [{}{}]  50%  2/4 MiB", "#".repeat(15), ".".repeat(15))
        );
        assert_eq!(render("unpack", 4 << 20, 4 << 20), format!("unpack  [{}] 100%  4/4 MiB", "#".repeat(30)));
        assert_eq!(percent(0, 0), 100);
        assert_eq!(percent(u64::MAX, u64::MAX), 100);
    }

    #[test]
    fn a_disabled_bar_writes_nothing_and_an_enabled_one_ends_its_line() {
        let mut off: Bar<Vec<u8>> = Bar::new(None, "x", 10);
        off.add(5);
        off.finish();
        assert!(off.out.is_none());
        let mut on = Bar::new(Some(Vec::new()), "x", 10);
        on.add(5);
        on.add(5);
        on.finish();
        let text = String::from_utf8(on.out.unwrap()).unwrap();
        assert_eq!(text.matches('\r').count(), 2);
        assert!(text.ends_with("100%  0/0 MiB\n"), "{text}");
    }

    proptest! {
        /// Whatever the steps, the bar never goes back, never passes 100 %, redraws at most
        /// once per percent and ends at 100 % when all the work is done.
        #[test]
        fn redraws_are_monotonic_and_bounded(total in 0u64..1 << 40, steps in prop::collection::vec(0u64..1 << 36, 0..200)) {
            let mut bar = Bar::new(Some(Vec::new()), "x", total);
            for &s in &steps {
                bar.add(s);
            }
            bar.add(total);
            let text = String::from_utf8(bar.out.take().unwrap()).unwrap();
            let pcts: Vec<u64> = text
                .split('\r')
                .filter(|l| !l.is_empty())
                .map(|l| l.split(']').nth(1).unwrap().trim_start().split('%').next().unwrap().parse().unwrap())
                .collect();
            prop_assert!(pcts.windows(2).all(|w| w[0] < w[1]), "{pcts:?}");
            prop_assert!(pcts.len() <= 101);
            prop_assert_eq!(pcts.last().copied(), Some(100));
        }
    }
}
