//! TLS for `https://` (feature `https`): rustls, whose parsing of records, handshake messages and
//! certificates (with rustls-webpki and untrusted) has no `unsafe` code, over graviola's
//! cryptography (`rustls-graviola`). The provider is given to each configuration
//! (`ClientConfig::builder_with_provider`), never installed for the process, and graviola's CPU
//! check runs before it is used: graviola asserts the CPU features it needs (a panic), where a
//! refusal that says so is wanted. The roots: Mozilla's (`webpki-roots`) and the certificates of
//! a PEM file ([`HttpOptions::ca_file`](super::HttpOptions::ca_file), else the file the
//! environment's `SSL_CERT_FILE` names).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use alloc::string::String;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use rustls::{ClientConfig, RootCertStore};

/// The most bytes of a PEM file of roots read (Mozilla's whole bundle is about 220 KB).
pub const MAX_CA_FILE: u64 = 16 << 20;

/// The client configuration for `https://` connections, with the roots: Mozilla's, and those of
/// `ca_file` (or of `SSL_CERT_FILE` when `ca_file` is `None`). An error says why there is none:
/// a CPU without what graviola needs, a platform graviola does not build for, a PEM file that
/// cannot be read or holds no certificate.
pub fn config(ca_file: Option<&Path>) -> Result<Arc<ClientConfig>, String> {
    let provider = provider()?;
    let mut roots = RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    match ca_file {
        Some(file) => add_pem_roots(&mut roots, file, true)?,
        None => {
            // A system's bundle may hold a certificate webpki cannot take as a root: skipped.
            if let Some(file) = std::env::var_os("SSL_CERT_FILE").filter(|v| !v.is_empty()) {
                add_pem_roots(&mut roots, &PathBuf::from(file), false)?;
            }
        }
    }
    let config = ClientConfig::builder_with_provider(Arc::new(provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| alloc::format!("the TLS configuration: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// graviola's provider, once its CPU check has passed.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn provider() -> Result<rustls::crypto::CryptoProvider, String> {
    if !graviola::util::is_cpu_supported() {
        return Err(alloc::format!(
            "https:// needs a CPU with what graviola's cryptography uses ({}); this one lacks some of it: \
             read the file through a local TLS-terminating proxy over http://, or after a download",
            if cfg!(target_arch = "x86_64") {
                "aes, pclmulqdq, avx, avx2, bmi1, bmi2, adx"
            } else {
                "aes, sha2, pmull, neon"
            }
        ));
    }
    Ok(rustls_graviola::default_provider())
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn provider() -> Result<rustls::crypto::CryptoProvider, String> {
    Err("https:// is available on x86-64 and aarch64 only (graviola's cryptography): read the file \
         through a local TLS-terminating proxy over http://, or after a download"
        .into())
}

/// Adds the certificates of the PEM file `file` to `roots`: at least one, each a valid root when
/// `strict` (else those that are not are skipped).
fn add_pem_roots(roots: &mut RootCertStore, file: &Path, strict: bool) -> Result<(), String> {
    let say = |what: &dyn core::fmt::Display| alloc::format!("the CA file {}: {what}", file.display());
    let f = std::fs::File::open(file).map_err(|e| say(&e))?;
    let mut bytes = alloc::vec::Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(f, MAX_CA_FILE + 1), &mut bytes)
        .map_err(|e| say(&e))?;
    if bytes.len() as u64 > MAX_CA_FILE {
        return Err(say(&alloc::format!("longer than {MAX_CA_FILE} bytes")));
    }
    let mut n = 0;
    for cert in CertificateDer::pem_slice_iter(&bytes) {
        let cert = cert.map_err(|e| say(&alloc::format!("not PEM: {e}")))?;
        match roots.add(cert) {
            Ok(()) => n += 1,
            Err(e) if strict => return Err(say(&alloc::format!("certificate {}: {e}", n + 1))),
            Err(_) => {}
        }
    }
    if n == 0 {
        return Err(say(&"no certificate (PEM, -----BEGIN CERTIFICATE-----) in it"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pem_files_that_hold_no_certificate_are_refused_by_name() {
        let dir = std::env::temp_dir().join(alloc::format!("b2schema-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "nothing here\n").unwrap();
        let junk = dir.join("junk.pem");
        std::fs::write(&junk, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n").unwrap();
        let mut roots = RootCertStore::empty();
        let e = add_pem_roots(&mut roots, &empty, true).unwrap_err();
        assert!(e.contains("empty.pem") && e.contains("no certificate"), "{e}");
        let e = add_pem_roots(&mut roots, &junk, true).unwrap_err();
        assert!(e.contains("junk.pem") && e.contains("certificate 1"), "{e}");
        // Not strict (SSL_CERT_FILE): the bad one skipped, and then none is left.
        let e = add_pem_roots(&mut roots, &junk, false).unwrap_err();
        assert!(e.contains("no certificate"), "{e}");
        let e = add_pem_roots(&mut roots, &dir.join("missing.pem"), true).unwrap_err();
        assert!(e.contains("missing.pem"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
