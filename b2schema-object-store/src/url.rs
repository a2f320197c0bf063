//! Object-store URLs (`s3://bucket/key`, `gs://bucket/key`, `az://container/key`,
//! `abfs://container@account.dfs.core.windows.net/key`) and the client each is read with,
//! configured from the environment as object_store reads it (`AWS_*`, `AZURE_*`, `GOOGLE_*`).

use std::sync::Arc;

use b2schema::{Error, Result};
use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::path::Path;
use object_store::{BackoffConfig, ObjectStore, RetryConfig};

use crate::counting::{CountingConnector, Counts};
use crate::options::ObjectOptions;

/// The schemes read through object_store.
const SCHEMES: [&str; 8] = ["s3", "s3a", "gs", "az", "azure", "abfs", "abfss", "adl"];

/// Whether `text` is an object-store URL: one of `s3://`, `s3a://`, `gs://`, `az://`,
/// `azure://`, `abfs://`, `abfss://`, `adl://`.
pub fn is_object_url(text: &str) -> bool {
    text.split_once("://").is_some_and(|(scheme, _)| SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()))
}

/// An object's URL: the client of its bucket or container, and its key there.
#[derive(Debug, Clone)]
pub struct ObjectUrl {
    /// The URL as given.
    pub text: String,
    /// The client (S3, GCS or Azure), configured from the environment.
    pub store: Arc<dyn ObjectStore>,
    /// The object's key.
    pub path: Path,
    pub(crate) counts: Arc<Counts>,
    /// Whether the client's HTTP connector counts the requests (this crate's clients); a
    /// caller's own store is counted one request per fetch.
    pub(crate) counted_by_connector: bool,
}

impl ObjectUrl {
    /// The object `path` of a store you built (any `ObjectStore`: an in-memory one, a client
    /// with settings of your own); `text` names it in messages. Each ranged read the source
    /// sends counts as one request against the budget (the clients this crate builds count every
    /// HTTP request at their connector, retries included).
    pub fn from_store(text: impl Into<String>, store: Arc<dyn ObjectStore>, path: Path) -> ObjectUrl {
        let counts = Arc::new(Counts::default());
        ObjectUrl { text: text.into(), store, path, counts, counted_by_connector: false }
    }

    /// The client and the key of `url`, the client configured from the environment's `AWS_*`
    /// (`s3://`), `GOOGLE_*` (`gs://`) or `AZURE_*` (`az://`, `abfs://`) variables and
    /// `options` (timeouts, retries).
    pub fn parse(url: &str, options: &ObjectOptions) -> Result<ObjectUrl> {
        Self::parse_in(url, options, false)
    }

    /// [`ObjectUrl::parse`] of a prefix (`s3://bucket/`, `s3://bucket/some/prefix/`): the key
    /// may be empty, the bucket's every object.
    pub fn parse_prefix(url: &str, options: &ObjectOptions) -> Result<ObjectUrl> {
        Self::parse_in(url, options, true)
    }

    fn parse_in(url: &str, options: &ObjectOptions, prefix: bool) -> Result<ObjectUrl> {
        let bad = |expected: &str, found: String| {
            Error::invalid("an object-store URL", expected.to_string(), found, 0).in_file(url)
        };
        let parsed = ::url::Url::parse(url).map_err(|e| bad("scheme://bucket/key", e.to_string()))?;
        if !is_object_url(url) {
            return Err(bad(&format!("one of the schemes {}", SCHEMES.join(", ")), parsed.scheme().into()));
        }
        let (_, path) = object_store::ObjectStoreScheme::parse(&parsed)
            .map_err(|e| bad("scheme://bucket/key", e.to_string()))?;
        if path.as_ref().is_empty() && !prefix {
            return Err(bad("a key after the bucket", "none".into()));
        }
        let counts = Arc::new(Counts::default());
        // The client's settings, as strings (setting `ClientOptions` whole would drop the
        // environment's, `AWS_ALLOW_HTTP` among them); the caller's settings after ours.
        let ms = format!("{}ms", options.timeout.as_millis());
        let ours = [
            ("timeout".to_string(), ms.clone()),
            ("connect_timeout".to_string(), ms),
            ("pool_max_idle_per_host".to_string(), options.concurrency.max(1).to_string()),
        ];
        let retry = RetryConfig {
            backoff: BackoffConfig::default(),
            max_retries: options.retries,
            retry_timeout: options.timeout.saturating_mul(options.retries as u32 + 1),
        };
        let connector = || CountingConnector(counts.clone());
        let unknown = |k: &str| bad("a setting object_store knows", format!("{k:?}"));
        macro_rules! configured {
            ($builder:expr) => {{
                let mut b = $builder;
                for (k, v) in ours.iter().chain(&options.config) {
                    b = b.with_config(k.to_ascii_lowercase().parse().map_err(|_| unknown(k))?, v);
                }
                b
            }};
        }
        let built: object_store::Result<Arc<dyn ObjectStore>> = match parsed.scheme() {
            "s3" | "s3a" => configured!(AmazonS3Builder::from_env().with_url(url).with_retry(retry.clone()))
                .with_http_connector(connector())
                .build()
                .map(|s| Arc::new(s) as _),
            "gs" => {
                configured!(GoogleCloudStorageBuilder::from_env().with_url(url).with_retry(retry.clone()))
                    .with_http_connector(connector())
                    .build()
                    .map(|s| Arc::new(s) as _)
            }
            _ => configured!(MicrosoftAzureBuilder::from_env().with_url(url).with_retry(retry.clone()))
                .with_http_connector(connector())
                .build()
                .map(|s| Arc::new(s) as _),
        };
        let store = built.map_err(|e| bad("a client configured from the environment", e.to_string()))?;
        Ok(ObjectUrl { text: url.to_string(), store, path, counts, counted_by_connector: true })
    }
}
