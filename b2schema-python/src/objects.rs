//! Object-store URLs (`s3://bucket/key`, `gs://...`, `az://container/key`, `abfs://...`) opened
//! through `b2schema-object-store`'s openers (object_store's clients, configured from the
//! environment as object_store reads it: `AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, `AWS_REGION`,
//! `AWS_ALLOW_HTTP`, `AZURE_STORAGE_*`, `GOOGLE_*`): frames, sparse frames (a prefix ending in
//! `/`) and stores in one object (`.b2z`, `.b2e`). What is fetched is checked as any file is.

use b2schema::Limits;
use b2schema::store::Store;

pub use b2schema_object_store::is_object_url;

/// The container at the object-store `url`: a contiguous frame's object, or a sparse frame's
/// prefix.
pub fn open(url: &str, limits: Limits) -> b2schema::Result<b2schema::Container> {
    b2schema::Container::from_frame(b2schema_object_store::open_frame(url, limits, &Default::default())?)
}

/// The store in the one object at `url` (`.b2z` or `.b2e`).
pub fn open_store(url: &str, limits: Limits) -> b2schema::Result<Store> {
    b2schema_object_store::open_store(url, limits, &Default::default())
}
