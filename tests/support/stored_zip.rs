//! Stored ZIPs (`.b2z` as python-blosc2 writes them, members stored uncompressed) written byte
//! by byte for the store tests: of given members, or of a directory's files.

use std::path::Path;

/// A stored ZIP of `members` (name, bytes), written here byte by byte.
pub fn zip_of(members: &[(&str, &[u8])], method: u16) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in members {
        let at = out.len() as u32;
        let local = |v: &mut Vec<u8>, sig: u32| {
            v.extend_from_slice(&sig.to_le_bytes());
        };
        local(&mut out, 0x0403_4b50);
        out.extend_from_slice(&[20, 0, 0, 0]);
        out.extend_from_slice(&method.to_le_bytes());
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        local(&mut central, 0x0201_4b50);
        central.extend_from_slice(&[20, 3, 20, 0, 0, 0]);
        central.extend_from_slice(&method.to_le_bytes());
        central.extend_from_slice(&[0; 8]);
        central.extend_from_slice(&(data.len() as u32).to_le_bytes());
        central.extend_from_slice(&(data.len() as u32).to_le_bytes());
        central.extend_from_slice(&(name.len() as u16).to_le_bytes());
        central.extend_from_slice(&[0; 12]);
        central.extend_from_slice(&at.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let cd_at = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    let n = members.len() as u16;
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_at.to_le_bytes());
    out.extend_from_slice(&[0; 2]);
    out
}

/// A stored ZIP of the files under `root` (a `.b2d` store directory), named by their paths
/// under it, sorted.
pub fn dir_as_zip(root: &Path) -> Vec<u8> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let name = p.strip_prefix(root).unwrap().to_str().unwrap().replace('\\', "/");
                files.push((name, std::fs::read(&p).unwrap()));
            }
        }
    }
    files.sort();
    let members: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    zip_of(&members, 0)
}
