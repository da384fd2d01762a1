//! The `ddbsim` binary: parses the command line and hands over to the library.

/// Large blocks in huge pages (see [`ddbsim::alloc`]): the binary's choice, not the library's.
#[global_allocator]
static ALLOCATOR: ddbsim::alloc::Allocator = ddbsim::alloc::Allocator;

fn main() {
    // A reader that closes early (`ddbsim schema | head -1`) ends ddbsim as it ends other Unix
    // tools, by SIGPIPE, instead of a panic in `print!` (Rust ignores SIGPIPE by default).
    // SAFETY: restoring a signal's default disposition before any thread starts.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(ddbsim::cli_main());
}
