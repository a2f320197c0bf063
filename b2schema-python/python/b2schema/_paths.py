"""What a path or URL names, before anything is opened."""


def _is_url(path):
    return isinstance(path, str) and (path.startswith("http://") or path.startswith("https://"))


# The suffixes of python-blosc2's stores: a directory (``.b2d``), a ZIP (``.b2z``), an embed store.
_STORE_EXTS = (".b2z", ".b2d", ".b2e")
