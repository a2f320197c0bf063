//! The shell's own help (issue 37): completions of the values the parser knows, the budget
//! options once under a heading after a subcommand's own, one man page with every subcommand's
//! options, and colour in the human reports.

use std::process::{Command, Output};

use b2schema_tests::repo_root;

fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_b2schema"));
    c.current_dir(repo_root()).args(args).env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn out(args: &[&str]) -> String {
    String::from_utf8(run(args, &[]).stdout).unwrap()
}

const ND: &str = "tests/data/fixtures/nd-meta-vlmeta.b2nd";

#[test]
fn completions_offer_codecs_filters_layouts_and_colours() {
    let bash = out(&["completions", "bash"]);
    // `pack --codec`: the codecs pack writes, not file names.
    assert!(
        bash.contains(
            "--codec)\n                    COMPREPLY=($(compgen -W \"blosclz lz4 lz4hc zlib zstd ndlz zfp_acc zfp_prec zfp_rate\""
        ),
        "pack --codec"
    );
    // `ls --codec`: any codec a frame may hold.
    assert!(bash.contains("compgen -W \"blosclz lz4 lz4hc snappy zlib zstd ndlz"), "ls --codec");
    assert!(bash.contains("compgen -W \"none shuffle bitshuffle delta trunc_prec"), "--filter");
    assert!(bash.contains("compgen -W \"auto always never\""), "--color");
    // `layout NAME`.
    assert!(bash.contains(
        "frame-header frame-flags filter-pipeline metalayers trailer fingerprint b2nd b2nd-dev6 caterva"
    ));
    let zsh = out(&["completions", "zsh"]);
    assert!(
        zsh.contains("(blosclz lz4 lz4hc zlib zstd ndlz zfp_acc zfp_prec zfp_rate)")
            && zsh.contains("frame-header\\:"),
        "zsh"
    );
}

#[test]
fn budget_options_come_once_under_a_heading_after_the_own_options() {
    for sub in ["inspect", "verify", "cat", "ls"] {
        let help = out(&[sub, "--help"]);
        let heading =
            help.find("\nBudget (what one input may cost").unwrap_or_else(|| panic!("{sub}: {help}"));
        assert_eq!(help.matches("--max-decompressed <BYTES>").count(), 1, "{sub}");
        assert!(
            help.find("--max-decompressed <BYTES>").unwrap() > heading,
            "{sub}: budget under its heading"
        );
        let own = if sub == "cat" { "--output" } else { "--recursive" };
        assert!(help.find(own).unwrap() < heading, "{sub}: its own options first");
    }
}

#[test]
fn the_man_page_holds_every_subcommand_and_its_options() {
    let man = out(&["man"]);
    assert!(!man.contains("b2schema\\-inspect(1)"), "no page that is never generated is named");
    for section in ["INSPECT", "VERIFY", "LS", "DU", "DIFF", "VLMETA SET", "CAT", "PACK", "LAYOUT"] {
        assert!(man.contains(&format!(".SH \"B2SCHEMA {section}\"")), "{section}");
    }
    let verify = &man[man.find(".SH \"B2SCHEMA VERIFY\"").unwrap()..];
    let verify = &verify[..verify[4..].find(".SH ").unwrap()];
    assert!(verify.contains("\\-\\-quick") && verify.contains("\\-\\-recursive"), "{verify}");
    assert!(!verify.contains("max\\-decompressed"), "the budget options once, at the top: {verify}");
    assert_eq!(man.matches("\\fB\\-\\-max\\-decompressed\\fR \\fI<BYTES>").count(), 1, "one entry");
}

#[test]
fn colour_in_the_human_reports_follows_color_and_no_color() {
    let has_escape = |o: &Output| o.stdout.contains(&0x1b);
    let verify = ["verify", ND];
    let coloured = run(&[&["--color", "always"][..], &verify].concat(), &[]);
    assert!(
        coloured.stdout.starts_with(b"\x1b[1m\x1b[32mok\x1b[0m tests/"),
        "{:?}",
        String::from_utf8_lossy(&coloured.stdout)
    );
    assert!(!has_escape(&run(&verify, &[])), "not a terminal: no colour");
    assert!(has_escape(&run(&verify, &[("CLICOLOR_FORCE", "1")])));
    assert!(!has_escape(&run(&verify, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")])));
    assert!(!has_escape(&run(&[&["--color", "never"][..], &verify].concat(), &[("CLICOLOR_FORCE", "1")])));
    let inspect = run(&["--color", "always", "inspect", ND], &[]);
    assert!(String::from_utf8_lossy(&inspect.stdout).contains("\x1b[1mmetalayers\x1b[0m 5\n"));
    // The same report without the colours, and JSON never coloured.
    let plain = run(&["inspect", ND], &[]).stdout;
    let stripped = String::from_utf8_lossy(&inspect.stdout).replace("\x1b[1m", "").replace("\x1b[0m", "");
    assert_eq!(stripped.as_bytes(), &plain[..]);
    assert!(!has_escape(&run(&["--color", "always", "inspect", "--json", ND], &[])));
    assert!(!has_escape(&run(&["--color", "always", "verify", "--json", ND], &[])));
}
