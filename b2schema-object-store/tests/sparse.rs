//! Sparse frames under an S3 prefix (moto on 127.0.0.1): written chunk objects first, the index
//! last, read back equal; python-blosc2's sparse frame read from its objects; an upload that
//! fails before its index leaves no frame, and a prefix with a frame is never written over.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use b2schema::Limits;
use b2schema::frame::FrameFile;
use b2schema::writer::{Fill, NdArray};
use b2schema_object_store::object_store::path::Path;
use b2schema_object_store::object_store::{
    self, CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult,
};
use b2schema_object_store::{ObjectUrl, open_sparse, open_sparse_at, upload_sparse, upload_sparse_to};
use futures_util::stream::BoxStream;

use crate::{at, moto};

/// A 400 x 300 `<i4` array of 10 chunks (100 x 120).
fn array() -> (b2schema::writer::Frame, Vec<i32>) {
    let items: Vec<i32> = (0..400 * 300).map(|i| i * 7 - 5).collect();
    let bytes: Vec<u8> = items.iter().flat_map(|v| v.to_le_bytes()).collect();
    let a = NdArray::new(&[400, 300], &[100, 120], &[50, 60], "<i4", 4, Fill::Data(&bytes));
    (a.to_frame().unwrap(), items)
}

#[test]
fn a_sparse_frame_written_under_a_prefix_reads_back_equal() {
    let s3 = moto();
    let (frame, items) = array();
    let up = upload_sparse("s3://data/sparse/a.b2nd/", &frame, &at(s3)).unwrap();
    assert!(up.bytes > 0);
    // Its objects: one per stored chunk, and the index.
    let files = frame.sparse_files().unwrap();
    assert_eq!(files.chunks.len(), 12);
    for (name, bytes) in &files.chunks {
        assert!(s3.download("data", &format!("sparse/a.b2nd/{name}")).unwrap() == *bytes, "{name}");
    }
    assert!(s3.download("data", "sparse/a.b2nd/chunks.b2frame").unwrap() == files.index);
    for url in ["s3://data/sparse/a.b2nd/", "s3://data/sparse/a.b2nd/chunks.b2frame"] {
        let f = open_sparse(url, Limits::default(), &at(s3)).unwrap();
        assert_eq!(f.frame_type(), b2schema::frame::FrameType::Sparse);
        let array = b2schema::Container::from_frame(f).unwrap();
        assert_eq!(array.read_as::<i32>(":").unwrap(), items, "{url}");
    }
    // One item: the index (one request), its chunk object's start (one), nothing more.
    let f = open_sparse("s3://data/sparse/a.b2nd/", Limits::default(), &at(s3)).unwrap();
    let one = b2schema::Container::from_frame(f).unwrap();
    assert_eq!(one.read_as::<i32>("150:151,130:131").unwrap(), [(150 * 300 + 130) * 7 - 5]);
}

#[test]
fn python_blosc2s_sparse_frame_reads_from_its_objects_as_from_its_directory() {
    let s3 = moto();
    let dir = b2schema_tests::fixture_file("sparse-2d-i4.b2nd");
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        s3.put("data", &format!("py/sparse-2d-i4.b2nd/{name}"), &std::fs::read(&p).unwrap());
    }
    let local = b2schema::Container::from_frame(FrameFile::open(&dir).unwrap()).unwrap();
    let f = open_sparse("s3://data/py/sparse-2d-i4.b2nd/", Limits::default(), &at(s3)).unwrap();
    let remote = b2schema::Container::from_frame(f).unwrap();
    assert!(local.read_all().unwrap() == remote.read_all().unwrap());
}

/// A store whose puts fail from the `n`th on (a connection lost in the middle of an upload).
#[derive(Debug)]
struct FailAfter {
    inner: Arc<dyn ObjectStore>,
    left: AtomicUsize,
}

impl fmt::Display for FailAfter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FailAfter({})", self.inner)
    }
}

#[async_trait::async_trait]
impl ObjectStore for FailAfter {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> object_store::Result<PutResult> {
        if self.left.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_err() {
            let source = "the connection was lost".into();
            return Err(object_store::Error::Generic { store: "test", source });
        }
        self.inner.put_opts(location, payload, opts).await
    }
    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> object_store::Result<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }
    async fn get_opts(&self, location: &Path, options: GetOptions) -> object_store::Result<GetResult> {
        self.inner.get_opts(location, options).await
    }
    fn delete_stream(
        &self,
        locations: BoxStream<'static, object_store::Result<Path>>,
    ) -> BoxStream<'static, object_store::Result<Path>> {
        self.inner.delete_stream(locations)
    }
    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
        self.inner.list(prefix)
    }
    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> object_store::Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }
    async fn copy_opts(&self, from: &Path, to: &Path, options: CopyOptions) -> object_store::Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}

#[test]
fn an_upload_cut_before_its_index_leaves_no_frame_and_a_frame_is_never_written_over() {
    let s3 = moto();
    let (frame, items) = array();
    let url = "s3://data/cut/a.b2nd/";
    let client = ObjectUrl::parse(url, &at(s3)).unwrap();
    // Five chunk objects stored, then every put fails.
    let failing = Arc::new(FailAfter { inner: client.store.clone(), left: AtomicUsize::new(5) });
    let dir = ObjectUrl::from_store(url, failing, client.path.clone());
    let e = upload_sparse_to(&dir, &frame, &at(s3)).unwrap_err();
    assert!(e.to_string().contains("the connection was lost"), "{e}");
    assert!(s3.download("data", "cut/a.b2nd/chunks.b2frame").is_none(), "an index after a failed upload");
    assert!(open_sparse(url, Limits::default(), &at(s3)).is_err());
    // Once whole, it reads; a second upload to the prefix is refused and the first still reads.
    upload_sparse(url, &frame, &at(s3)).unwrap();
    let (other, _) = {
        let items: Vec<u8> = vec![9; 400 * 300 * 4];
        let a = NdArray::new(&[400, 300], &[100, 120], &[50, 60], "<i4", 4, Fill::Data(&items));
        (a.to_frame().unwrap(), ())
    };
    let e = upload_sparse(url, &other, &at(s3)).unwrap_err();
    assert!(e.to_string().contains("a prefix with no sparse frame"), "{e}");
    let f = open_sparse_at(ObjectUrl::parse(url, &at(s3)).unwrap(), Limits::default(), &at(s3)).unwrap();
    assert_eq!(b2schema::Container::from_frame(f).unwrap().read_as::<i32>(":").unwrap(), items);
    // Not a prefix: said before anything is sent.
    let e = upload_sparse("s3://data/cut/a.b2nd", &frame, &at(s3)).unwrap_err();
    assert!(e.to_string().contains("a sparse frame's prefix"), "{e}");
}
