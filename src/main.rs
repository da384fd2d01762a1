//! The `ddbsim` binary: parses the command line and hands over to [`ddbsim::cli::run`].

fn main() {
    std::process::exit(ddbsim::cli::main());
}
