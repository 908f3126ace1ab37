//! `levelgen studio`: a local web page to see and steer every generator live.

use super::error::CliError;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// Start the studio: a local web server with one pane per generator. Prints its address.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Port (0 picks a free one).
    #[arg(long, default_value_t = 8450)]
    pub port: u16,
    /// Address to bind; the default serves this machine only. Any address that is not
    /// loopback serves other machines too, and needs --allow-remote.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// Allow --bind on an address other machines can reach (a warning says what it exposes).
    #[arg(long)]
    pub allow_remote: bool,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

/// Runs the server until the process is stopped.
pub fn run(args: Args) -> Result<(), CliError> {
    let addr = SocketAddr::new(args.bind, args.port);
    levelgen_studio::check_bind(addr, args.allow_remote)
        .map_err(|e| CliError::input_msg(format!("{e} (add --allow-remote to serve it anyway)")))?;
    if !addr.ip().is_loopback() {
        eprintln!("warning: {}", levelgen_studio::remote_warning(addr));
    }
    levelgen_studio::run(addr, &examples(), args.open).map_err(|e| {
        CliError::output(std::io::Error::new(
            e.kind(),
            format!("{addr}: {e} (--port 0 picks a free port)"),
        ))
    })
}

/// The repository's examples the page offers: the six Marahel scripts and the two Heroes
/// templates.
pub fn examples() -> levelgen_studio::Examples {
    let list = |items: &[(&str, &str)]| {
        items
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect()
    };
    levelgen_studio::Examples {
        marahel: list(&[
            ("cave", include_str!("../../examples/marahel/cave.json")),
            ("digger", include_str!("../../examples/marahel/digger.json")),
            ("mine", include_str!("../../examples/marahel/mine.json")),
            (
                "nonuniform",
                include_str!("../../examples/marahel/nonuniform.json"),
            ),
            (
                "roguelike",
                include_str!("../../examples/marahel/roguelike.json"),
            ),
            (
                "uniform",
                include_str!("../../examples/marahel/uniform.json"),
            ),
        ]),
        heroes: list(&[
            ("duel", include_str!("../../examples/heroes/duel.json")),
            (
                "four-kingdoms",
                include_str!("../../examples/heroes/four-kingdoms.json"),
            ),
        ]),
        search: list(&[
            (
                "cave-range",
                include_str!("../../examples/search/cave-range.json"),
            ),
            ("binary", include_str!("../../examples/search/binary.json")),
            ("zelda", include_str!("../../examples/search/zelda.json")),
            (
                "zones-floor",
                include_str!("../../examples/search/zones-floor.json"),
            ),
            (
                "mario-enemies",
                include_str!("../../examples/search/mario-enemies.json"),
            ),
            (
                "heroes-areas",
                include_str!("../../examples/search/heroes-areas.json"),
            ),
        ]),
    }
}
