//! The `ddbsim` binary: parses the command line and hands over to the library.

fn main() {
    std::process::exit(ddbsim::cli_main());
}
