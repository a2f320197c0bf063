//! The NumPy dtype parser. A dtype that parses prints as NumPy would, that text parses, and
//! printing (and the size) is stable from there.
#![no_main]

use b2schema::dtype::DType;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match DType::parse(text) {
        Ok(dt) => {
            let _ = (dt.itemsize(), dt.alignment(), dt.shape(), dt.fields().len(), dt.base());
            // Printed as NumPy's str(dtype), which is not always NumPy's own input back, in NumPy
            // as here: a dict dtype with an empty field name prints as `[('', '<i8')]`, a list in
            // which that field is named 'f0'; a nested struct with padding (an itemsize or
            // alignment of its own) prints as a plain list, without the padding. So the printed
            // text must parse, and from there printing and sizes are stable.
            let printed = dt.to_numpy_str();
            let again = DType::parse(&printed)
                .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which does not parse: {e}"));
            let stable = again.to_numpy_str();
            let third = DType::parse(&stable).unwrap_or_else(|e| panic!("{stable:?} does not parse: {e}"));
            assert_eq!(third.to_numpy_str(), stable, "{text:?} -> {printed:?}");
            assert_eq!(third.itemsize(), again.itemsize(), "{text:?} -> {printed:?}");
        }
        Err(e) => {
            assert!(e.offset <= text.len(), "{text:?}: {e}");
            let _ = e.to_string();
        }
    }
});
