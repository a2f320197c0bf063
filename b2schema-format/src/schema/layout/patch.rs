//! In-place updates of fixed-width fields: how c-blosc2 updates `frame_len` and array shapes.

use core::marker::PhantomData;

use serde_core::de::Deserialize;
use serde_core::ser::Serialize;

use super::{FieldLayout, Role};
use crate::format::encoding::{Encoding, Expected};
use crate::format::error::{Error, ErrorKind, Result};
use crate::format::ser::{Serializer, SliceOutput};
use crate::format::wrap::{As, AsSeed};

/// The largest fixed field a handle patches (a fixext16 is 18 bytes; a fixstr 32).
const MAX_FIELD: usize = 64;

/// A typed handle on one fixed-width field of a layout: reads it from, or writes it into, an
/// encoded buffer without touching any other byte and without changing the length.
///
/// `#[derive(B2Layout)]` generates one per field as an associated constant named after the field
/// in upper case (`FrameHeader::FRAME_LEN`).
pub struct FieldRef<T: ?Sized> {
    field: &'static FieldLayout,
    _type: PhantomData<fn(&T)>,
}

impl<T: ?Sized> Clone for FieldRef<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for FieldRef<T> {}

impl<T: ?Sized> core::fmt::Debug for FieldRef<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FieldRef").field("field", &self.field.name).finish()
    }
}

impl<T: ?Sized> FieldRef<T> {
    /// A handle on `field`.
    pub const fn new(field: &'static FieldLayout) -> Self {
        FieldRef { field, _type: PhantomData }
    }

    /// The field's layout.
    pub const fn layout(&self) -> &'static FieldLayout {
        self.field
    }

    /// Where the field is (marker offset and width); `reading` says which use is refused when it
    /// has no fixed place.
    fn place(&self, reading: bool) -> Result<(usize, usize)> {
        match (self.field.marker_offset, self.field.width) {
            (Some(o), Some(w)) => Ok((o, w)),
            _ => Err(Error::new(ErrorKind::Unsupported(if reading {
                "reading a field whose offset or width depends on the values before it"
            } else {
                "patching a field whose offset or width depends on the values before it"
            }))
            .in_field(self.field.name)),
        }
    }

    /// Where the field is, when it may be patched: a constant (`magic`) is fixed by the layout and
    /// a `computed` field by the fields it is computed from, so patching either would leave bytes
    /// the decoder rejects.
    fn patch_place(&self) -> Result<(usize, usize)> {
        let why = match self.field.role {
            Role::Data => return self.place(false),
            Role::Magic(_) => {
                "patching a constant (`magic`) field: the layout fixes its value and the decoder checks it"
            }
            Role::Computed(_) => {
                "patching a `computed` field: it follows the fields it is computed from; change those and encode the struct again"
            }
        };
        Err(Error::new(ErrorKind::Unsupported(why)).in_field(self.field.name))
    }

    /// Checks that `found`, the byte now at the field's marker offset, is a marker of the field's
    /// encoding, and the one `encoded` starts with when the marker carries a length.
    fn check_marker(&self, found: u8, encoded: u8, offset: usize) -> Result<()> {
        let enc = self.field.encoding;
        let ok = match enc.value_width() {
            Some(0) => enc.accepts(found),
            _ => enc == Encoding::Raw || found == encoded,
        };
        if ok {
            return Ok(());
        }
        Err(Error::at(ErrorKind::UnexpectedMarker { expected: Expected::any(enc), found }, offset)
            .in_field(self.field.name))
    }
}

impl<T: ?Sized + Serialize> FieldRef<T> {
    /// The field's bytes for `value`, which must be exactly its width.
    /// An error names the field's marker offset (`offset`, from the start of the struct).
    fn encode<'b>(&self, value: &T, buf: &'b mut [u8; MAX_FIELD]) -> Result<&'b [u8]> {
        let (offset, width) = self.place(false)?;
        let mut ser = Serializer::new(SliceOutput::new(&mut buf[..]));
        As(self.field.encoding, value)
            .serialize(&mut ser)
            .map_err(|e| e.with_offset(0).shift_offset(offset).in_field(self.field.name))?;
        let n = ser.position();
        if n != width {
            return Err(Error::at(
                ErrorKind::Mismatch {
                    what: "field width",
                    expected: crate::format::error::bytes(width as u64),
                    found: crate::format::error::bytes(n as u64),
                },
                offset,
            )
            .in_field(self.field.name));
        }
        Ok(&buf[..n])
    }

    /// Writes `value` into `encoded` (the encoding of the whole struct, from its first byte),
    /// after checking the marker in place.
    ///
    /// Refused for a `magic` or `computed` field, and for a field with no fixed place.
    pub fn patch(&self, encoded: &mut [u8], value: &T) -> Result<()> {
        let (offset, width) = self.patch_place()?;
        let mut buf = [0u8; MAX_FIELD];
        let bytes = self.encode(value, &mut buf)?;
        let available = encoded.len().saturating_sub(offset);
        let Some(dst) = encoded.get_mut(offset..offset + width) else {
            return Err(Error::at(ErrorKind::UnexpectedEof { needed: width, available }, offset)
                .in_field(self.field.name));
        };
        self.check_marker(dst[0], bytes[0], offset)?;
        dst.copy_from_slice(bytes);
        Ok(())
    }

    /// Writes `value` into the struct encoded at byte `base` of `file`, after reading and checking
    /// the marker there. Only the field's bytes are written, in one write.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn patch_file<F>(&self, file: &mut F, base: u64, value: &T) -> Result<()>
    where
        F: std::io::Read + std::io::Write + std::io::Seek,
    {
        use std::io::SeekFrom;
        let (offset, _) = self.patch_place()?;
        let mut buf = [0u8; MAX_FIELD];
        let shift = usize::try_from(base).unwrap_or(usize::MAX);
        let bytes = self.encode(value, &mut buf).map_err(|e| e.shift_offset(shift))?;
        let at = base + offset as u64;
        let at_usize = usize::try_from(at).unwrap_or(usize::MAX);
        let name = self.field.name;
        let io = |e: std::io::Error| Error::at(ErrorKind::Io(e), at_usize).in_field(name);
        file.seek(SeekFrom::Start(at)).map_err(io)?;
        let mut found = [0u8; 1];
        file.read_exact(&mut found).map_err(io)?;
        self.check_marker(found[0], bytes[0], at_usize)?;
        file.seek(SeekFrom::Start(at)).map_err(io)?;
        file.write_all(bytes).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(())
    }
}

impl<T> FieldRef<T> {
    /// Reads the field from `encoded` (the encoding of the whole struct), checking its marker. A
    /// borrowed field (`&str`, `&[u8]`) borrows from `encoded`.
    pub fn read<'de>(&self, encoded: &'de [u8]) -> Result<T>
    where
        T: Deserialize<'de>,
    {
        let (offset, width) = self.place(true)?;
        let bytes = encoded.get(offset..offset + width).ok_or_else(|| {
            let available = encoded.len().saturating_sub(offset);
            Error::at(ErrorKind::UnexpectedEof { needed: width, available }, offset).in_field(self.field.name)
        })?;
        let mut de = crate::format::de::Deserializer::from_slice(bytes);
        let v = serde_core::de::DeserializeSeed::deserialize(
            AsSeed::<T>(self.field.encoding, PhantomData),
            &mut de,
        )
        .map_err(|e| e.shift_offset(offset).in_field(self.field.name))?;
        de.end().map_err(|e| e.shift_offset(offset).in_field(self.field.name))?;
        Ok(v)
    }
}
