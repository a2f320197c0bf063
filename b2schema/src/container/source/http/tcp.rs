//! A TCP connection with a deadline for the HTTP client's reads.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Instant;

/// A TCP connection whose reads end at a deadline (each read waits at most for what is left
/// of it), so that a server sending a byte now and then cannot hold a request past it.
#[derive(Debug)]
pub(super) struct Tcp {
    pub(super) stream: TcpStream,
    pub(super) deadline: Option<Instant>,
}

impl Write for Tcp {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.stream.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.stream.flush()
    }
}

impl Read for Tcp {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(d) = self.deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the answer took longer than allowed",
                ));
            }
            self.stream.set_read_timeout(Some(left))?;
        }
        // A read timeout ends a read with `WouldBlock` (EAGAIN) on Unix: said as what it is.
        self.stream.read(buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::WouldBlock => {
                std::io::Error::new(std::io::ErrorKind::TimedOut, "the answer took longer than allowed")
            }
            _ => e,
        })
    }
}
