"""What a path or URL names, before anything is opened."""


# The URL schemes read remotely: plain and TLS HTTP by b2schema's own client, the others through
# object_store (S3, Google Cloud Storage, Azure).
_URL_SCHEMES = ("http", "https", "s3", "s3a", "gs", "az", "azure", "abfs", "abfss", "adl")


def _is_url(path):
    return isinstance(path, str) and path.split("://", 1)[0].lower() in _URL_SCHEMES and "://" in path


# The suffixes of python-blosc2's stores: a directory (``.b2d``), a ZIP (``.b2z``), an embed store.
_STORE_EXTS = (".b2z", ".b2d", ".b2e")
