//! The HTTP requests object_store sends for a source, counted: its own retries and the requests
//! that resume a broken body included, so that `--stats` and the request budget see them all.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use object_store::ClientOptions;
use object_store::client::{
    HttpClient, HttpConnector, HttpError, HttpRequest, HttpResponse, HttpService, ReqwestConnector,
};

/// Requests sent and body bytes received by the sources that share it.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    pub requests: AtomicU64,
    pub bytes: AtomicU64,
}

impl Counts {
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }
}

/// object_store's own connector (reqwest), each request counted in `counts`.
#[derive(Debug)]
pub(crate) struct CountingConnector(pub Arc<Counts>);

impl HttpConnector for CountingConnector {
    fn connect(&self, options: &ClientOptions) -> object_store::Result<HttpClient> {
        let inner = ReqwestConnector::default().connect(options)?;
        Ok(HttpClient::new(Counting { inner, counts: self.0.clone() }))
    }
}

#[derive(Debug)]
struct Counting {
    inner: HttpClient,
    counts: Arc<Counts>,
}

#[async_trait::async_trait]
impl HttpService for Counting {
    async fn call(&self, req: HttpRequest) -> Result<HttpResponse, HttpError> {
        self.counts.requests.fetch_add(1, Ordering::Relaxed);
        self.inner.execute(req).await
    }
}
