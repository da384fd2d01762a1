//! Reading the files a user names: every one is a regular file of bounded size, read without
//! blocking on a FIFO and without growing past its cap (`/dev/zero` given as a price catalog
//! grew to a gigabyte in three seconds; a FIFO given as a scenario blocked forever).

use std::io::{self, Read};
use std::path::Path;

/// Most bytes of a price catalog.
pub const PRICES_BYTES: u64 = 4 << 20;
/// Most bytes of a file ddbsim wrote itself and reads back (`sweep.json` of 10,000 points with
/// their replications, `recommend-tables.json`, `summary.json`).
pub const OWN_OUTPUT_BYTES: u64 = 512 << 20;

/// Opens `path` for reading when it is a regular file (a file streamed row by row, such as a
/// run's `partitions.csv`, has no size cap but must end).
///
/// # Errors
/// The open error, or `InvalidInput` when `path` is a FIFO, a device or a folder.
pub fn open_regular(path: &Path, what: &str) -> io::Result<(std::fs::File, std::fs::Metadata)> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO's open would wait for a writer: never block.
        o.custom_flags(libc::O_NONBLOCK);
    }
    let f = o.open(path)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("the {what} is not a regular file (a FIFO, a device or a folder)"),
        ));
    }
    Ok((f, meta))
}

/// Reads `path` whole: a regular file of at most `cap` bytes (`what` names it in a message).
///
/// # Errors
/// The open or read error, or `InvalidInput` when `path` is not a regular file (a FIFO, a
/// device, a folder) or is larger than `cap`.
pub fn read_capped(path: &Path, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    let (f, meta) = open_regular(path, what)?;
    let too_big = |n: u64| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("the {what} is {n} bytes or more; ddbsim reads at most {} MiB of one", cap >> 20),
        )
    };
    if meta.len() > cap {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    f.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// [`read_capped`] as UTF-8 text (a leading byte order mark kept).
///
/// # Errors
/// As [`read_capped`], and `InvalidData` when the file is not UTF-8.
pub fn read_text_capped(path: &Path, cap: u64, what: &str) -> io::Result<String> {
    let bytes = read_capped(path, cap, what)?;
    String::from_utf8(bytes)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("the {what} is not UTF-8 text: {}", e.utf8_error())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_fifos_folders_and_large_files_are_refused() {
        let zero = read_capped(Path::new("/dev/zero"), 1 << 20, "price catalog").unwrap_err();
        assert!(zero.to_string().contains("not a regular file"), "{zero}");
        let d = tempfile::tempdir().unwrap();
        assert!(read_capped(d.path(), 10, "scenario").unwrap_err().to_string().contains("not a regular file"));
        #[cfg(unix)]
        {
            let fifo = d.path().join("fifo");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: a valid C string and mode.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            assert!(read_capped(&fifo, 10, "scenario").unwrap_err().to_string().contains("not a regular file"));
        }
        let big = d.path().join("big");
        std::fs::write(&big, vec![b'x'; 2 << 20]).unwrap();
        assert!(read_capped(&big, 1 << 20, "price catalog").unwrap_err().to_string().contains("at most 1 MiB"));
        assert_eq!(read_capped(&big, 2 << 20, "price catalog").unwrap().len(), 2 << 20);
    }
}
