//! `FrameFile::patch_metalayer_field`: a field of a user metalayer, declared as a derived struct,
//! patched by name inside a file python-blosc2 wrote; python-blosc2 then reads the new value, and
//! no other byte of the file changed.

use std::process::Command;

use b2schema::B2Layout;
use b2schema::frame::FrameFile;
use b2schema_tests::{python, snapshot};

/// python-blosc2 packs a metalayer `[1, 2.5, "m/s"]` as `93 01 cb 40 04 .. a3 6d 2f 73`.
#[derive(B2Layout, Debug, PartialEq)]
struct Units<'a> {
    #[b2(magic = 1)]
    version: u8,
    scale: f64,
    #[b2(fixstr(len = 3))]
    name: &'a str,
}

fn run_python(py: &std::path::Path, script: &str) -> String {
    let out = Command::new(py).arg("-c").arg(script).output().unwrap();
    assert!(out.status.success(), "python failed:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_field_patched_by_name_is_read_by_python_blosc2() {
    let py = python();
    let dir = std::env::temp_dir().join(format!("b2schema-metalayer-patch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("units.b2nd");
    let p = path.display();
    run_python(
        &py,
        &format!(
            "import blosc2, numpy as np\n\
             a = blosc2.arange(0, 100, dtype=np.int32, shape=(10, 10), urlpath='{p}', mode='w', \
             meta={{'units': [1, 2.5, 'm/s']}})\n"
        ),
    );
    let before = std::fs::read(&path).unwrap();
    let mut frame = FrameFile::open(&path).unwrap();
    let layer = frame.view().unwrap().metalayer("units").unwrap().to_vec();
    assert_eq!(b2schema::from_slice::<Units>(&layer).unwrap(), Units { version: 1, scale: 2.5, name: "m/s" });

    frame.patch_metalayer_field("units", Units::SCALE, &-9.75).unwrap();
    let after = std::fs::read(&path).unwrap();
    assert_eq!(before.len(), after.len());
    let changed: Vec<usize> = (0..before.len()).filter(|&i| before[i] != after[i]).collect();
    // Only the f64's bytes (after its cb marker) changed.
    let scale_at = before.windows(layer.len()).position(|w| w == layer.as_slice()).unwrap() + 3;
    assert!(!changed.is_empty());
    assert!(changed.iter().all(|i| (scale_at..scale_at + 8).contains(i)), "{changed:?}");
    // The FrameFile's cached header follows the file.
    let layer = frame.view().unwrap().metalayer("units").unwrap().to_vec();
    assert_eq!(Units::SCALE.read(&layer).unwrap(), -9.75);

    let seen = run_python(
        &py,
        &format!(
            "import blosc2\n\
             a = blosc2.open('{p}')\n\
             print(a.schunk.meta['units'], int(a[3, 4]))\n"
        ),
    );
    assert_eq!(seen.trim(), "[1, -9.75, 'm/s'] 34");

    // Refusals change nothing and say where and what.
    let mut text = String::new();
    let mut line = |title: &str, r: b2schema::Result<()>| {
        text += &format!("{title}: {}\n", r.map(|()| "Ok".into()).unwrap_or_else(|e| e.to_string()));
    };
    line("version (a constant)", frame.patch_metalayer_field("units", Units::VERSION, &2));
    line("name of another length", frame.patch_metalayer_field("units", Units::NAME, &"km/h"));
    line("a metalayer that is not there", frame.patch_metalayer_field("unit", Units::SCALE, &1.0));
    line("the b2nd layer read as Units", frame.patch_metalayer_field("b2nd", Units::SCALE, &1.0));
    assert_eq!(std::fs::read(&path).unwrap(), after);
    // The offsets in the messages are absolute: the layer's content starts here.
    let content_at = before.windows(layer.len()).position(|w| w[..3] == layer[..3]).unwrap();
    text += &format!("(the units layer's content starts at byte {content_at} of the file)\n");
    snapshot!("metalayer_patch_refusals", text);
    let _ = std::fs::remove_dir_all(&dir);
}
