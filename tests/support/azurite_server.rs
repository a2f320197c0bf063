//! Azure Blob Storage's emulator on 127.0.0.1 for the object-store tests: Azurite's blob server
//! (npm, pinned in `scripts/azurite/`, installed by `scripts/azurite.sh`), in memory, without
//! telemetry, started by the test and stopped with the test process. A test that needs it fails,
//! never skips, when it cannot start.
//!
//! Its account is the emulator's well-known one (`devstoreaccount1` and its published key).
//! object_store has no call that makes a container: [`AzuriteServer::create_container`] sends
//! the signed request itself (Python's standard library signs it).

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};

/// The emulator's account.
pub const ACCOUNT: &str = "devstoreaccount1";
/// The emulator's published account key (not a secret: every Azurite has it).
pub const KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// A running Azurite blob server.
pub struct AzuriteServer {
    child: Child,
    port: u16,
    /// The server's stdin, held open while the server is wanted.
    _stdin: Option<std::process::ChildStdin>,
}

impl AzuriteServer {
    /// Installs Azurite when missing (`scripts/azurite.sh`), starts its blob server on a free
    /// port of 127.0.0.1 and waits (at most 60 s) until it answers.
    pub fn start() -> AzuriteServer {
        let out = Command::new("bash")
            .arg(crate::repo_root().join("scripts/azurite.sh"))
            .output()
            .expect("bash runs");
        assert!(out.status.success(), "scripts/azurite.sh failed:\n{}", String::from_utf8_lossy(&out.stderr));
        let bin = String::from_utf8(out.stdout).unwrap().trim().to_string();
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        // The server exits when its stdin ends, as moto does (`s3_server`): when this process
        // ends, however it ends. node runs Azurite's module behind a watch of stdin.
        let script = "process.stdin.on('end', () => process.exit(0)); process.stdin.resume();\n\
            require(process.argv[1]);";
        let main = std::path::Path::new(&bin)
            .parent()
            .and_then(|b| b.parent())
            .map(|m| m.join("azurite/dist/src/blob/main.js"))
            .expect("node_modules");
        let mut child = Command::new("node")
            .args(["-e", script, "--"])
            .arg(&main)
            .args(["--blobHost", "127.0.0.1", "--blobPort", &port.to_string()])
            .args(["--inMemoryPersistence", "--disableTelemetry", "--silent", "--skipApiVersionCheck"])
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("node starts Azurite");
        crate::s3_server::wait_listening(&mut child, port, "Azurite");
        let _stdin = child.stdin.take();
        AzuriteServer { child, port, _stdin }
    }

    /// `http://127.0.0.1:PORT`, the blob service.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The settings that point object_store's Azure client at this server as at any account
    /// (its endpoint, name and key; plain HTTP allowed).
    pub fn config(&self) -> Vec<(String, String)> {
        [
            ("azure_storage_account_name", ACCOUNT.to_string()),
            ("azure_storage_account_key", KEY.to_string()),
            ("azure_storage_endpoint", format!("{}/{ACCOUNT}", self.endpoint())),
            ("allow_http", "true".to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    /// The variables by which object_store's Azure client uses the emulator:
    /// `AZURE_STORAGE_USE_EMULATOR` and `AZURITE_BLOB_STORAGE_URL` (for a child process: a test
    /// does not change its own environment).
    pub fn env(&self) -> Vec<(String, String)> {
        vec![
            ("AZURE_STORAGE_USE_EMULATOR".into(), "true".into()),
            ("AZURITE_BLOB_STORAGE_URL".into(), self.endpoint()),
        ]
    }

    /// Makes the container `name` (a PUT signed with the account's key).
    pub fn create_container(&self, name: &str) {
        let script = r#"import base64, hashlib, hmac, sys, urllib.request
from email.utils import formatdate
endpoint, account, key, name = sys.argv[1:]
date, version = formatdate(usegmt=True), "2021-08-06"
sign = f"PUT\n\n\n\n\napplication/octet-stream\n\n\n\n\n\n\nx-ms-date:{date}\nx-ms-version:{version}\n/{account}/{account}/{name}\nrestype:container"
mac = base64.b64encode(hmac.new(base64.b64decode(key), sign.encode(), hashlib.sha256).digest()).decode()
req = urllib.request.Request(f"{endpoint}/{account}/{name}?restype=container", method="PUT", data=b"",
    headers={"Content-Type": "application/octet-stream", "x-ms-date": date, "x-ms-version": version, "Authorization": f"SharedKey {account}:{mac}"})
urllib.request.urlopen(req, timeout=60)
"#;
        let run = Command::new(crate::python())
            .args(["-c", script, &self.endpoint(), ACCOUNT, KEY, name])
            .output()
            .expect("python runs");
        assert!(run.status.success(), "creating container {name}: {}", String::from_utf8_lossy(&run.stderr));
    }
}

impl Drop for AzuriteServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
