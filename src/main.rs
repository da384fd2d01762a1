//! The `ddbsim` binary: parses the command line and hands over to the library.

/// Large blocks in huge pages (see [`ddbsim::alloc`]): the binary's choice, not the library's.
#[global_allocator]
static ALLOCATOR: ddbsim::alloc::Allocator = ddbsim::alloc::Allocator;

fn main() {
    std::process::exit(ddbsim::cli_main());
}
