//! [`NoAnswer`]: why a request of the viewer gets no data, typed until it becomes the answer, so
//! that a file leaving the roots is a 403 wherever it is met (a member, a CTable column, a
//! sparse frame's chunk file), told by the library's error kind, never by its text.

use super::http::Response;

/// Why a request gets no data: the status and the text of the answer.
#[derive(Debug)]
pub struct NoAnswer {
    /// 403 when a file met on the way leaves the roots ([`b2schema::ErrorKind::Confined`]),
    /// 422 for anything else.
    pub status: u16,
    /// What the answer says.
    pub why: String,
}

impl NoAnswer {
    /// Whether a file met on the way leaves the roots.
    pub fn is_outside(&self) -> bool {
        self.status == 403
    }

    /// The answer that says it.
    pub fn response(self) -> Response {
        Response::error(self.status, self.why)
    }
}

impl std::fmt::Display for NoAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status, self.why)
    }
}

impl From<b2schema::Error> for NoAnswer {
    fn from(e: b2schema::Error) -> Self {
        let status = if matches!(e.kind(), b2schema::ErrorKind::Confined { .. }) { 403 } else { 422 };
        NoAnswer { status, why: e.to_string() }
    }
}

impl From<String> for NoAnswer {
    fn from(why: String) -> Self {
        NoAnswer { status: 422, why }
    }
}

impl From<&str> for NoAnswer {
    fn from(why: &str) -> Self {
        NoAnswer { status: 422, why: why.to_string() }
    }
}
