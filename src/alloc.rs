//! An allocator for the `ddbsim` binary: the system's, except that on Linux a block of 1 MiB or
//! more is mapped on its own, aligned to 2 MiB and advised to the kernel as transparent huge
//! pages. The library declares no global allocator (a program that embeds it chooses its own);
//! the binary (`src/main.rs`) and the benchmarks declare this one.
//!
//! A table's per-partition state is a few large arrays (100,000 partitions: 8 MB of partition
//! state, 3.2 MB of buckets, 0.8 MB each for their ranges and the key draw's table). In 4 KiB
//! pages the kernel faults and zeroes them one page at a time: on this machine 8 MB touched
//! for the first time took 3.8 ms and its unmapping 0.5 ms, about 2 µs a page; in 2 MiB pages
//! the same 8 MB took 0.3–1 ms. A minute of the headline on 100,000 partitions went from
//! 4,935 page faults to 2,008, and its processor time from 99.0 and 103.2 ms to 92.7–101.8 ms
//! (`perf stat`, sets of 15 runs). Smaller blocks, and every block elsewhere than Linux, are
//! the system allocator's. Nothing the simulation computes depends on where its memory is.

use std::alloc::{GlobalAlloc, Layout, System};

/// The allocator the `ddbsim` binary runs on (see the module's documentation).
pub struct Allocator;

/// Blocks of this many bytes or more are mapped on their own.
#[cfg(target_os = "linux")]
const LARGE: usize = 1 << 20;
/// A transparent huge page.
#[cfg(target_os = "linux")]
const HUGE: usize = 2 << 20;

#[cfg(target_os = "linux")]
fn is_large(layout: Layout) -> bool {
    layout.size() >= LARGE && layout.align() <= HUGE
}

/// `size` rounded up to whole huge pages: the length of a large block's mapping.
#[cfg(target_os = "linux")]
fn mapped_len(size: usize) -> usize {
    size.div_ceil(HUGE) * HUGE
}

/// A fresh, zeroed mapping of `mapped_len(size)` bytes at a 2 MiB boundary, advised as huge
/// pages; null when the kernel refuses.
#[cfg(target_os = "linux")]
unsafe fn map(size: usize) -> *mut u8 {
    let len = mapped_len(size);
    let Some(over) = len.checked_add(HUGE) else { return std::ptr::null_mut() };
    // SAFETY: an anonymous private mapping at an address the kernel chooses touches no
    // existing memory.
    let p = unsafe {
        libc::mmap(std::ptr::null_mut(), over, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0)
    };
    if p == libc::MAP_FAILED {
        return std::ptr::null_mut();
    }
    let start = p as usize;
    let aligned = start.next_multiple_of(HUGE);
    let (head, tail) = (aligned - start, start + over - (aligned + len));
    // SAFETY: the head and tail are the parts of the mapping just made that lie outside the
    // aligned block, which nothing refers to; the advice changes no contents.
    unsafe {
        if head > 0 {
            libc::munmap(p, head);
        }
        if tail > 0 {
            libc::munmap((aligned + len) as *mut libc::c_void, tail);
        }
        // Advice only: without huge pages the block is ordinary pages.
        libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
    aligned as *mut u8
}

/// Unmaps a block [`map`] made for `size` bytes.
#[cfg(target_os = "linux")]
unsafe fn unmap(ptr: *mut u8, size: usize) {
    // SAFETY: the caller passes a block `map` returned for `size` bytes, no longer used.
    unsafe {
        libc::munmap(ptr.cast(), mapped_len(size));
    }
}

// SAFETY: small blocks are the system allocator's, unchanged; a large block is a mapping of
// its own, at least as long as asked and aligned to 2 MiB (every layout `is_large` accepts),
// released only by `dealloc` or `realloc` with the layout it was made for.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        #[cfg(target_os = "linux")]
        if is_large(layout) {
            // SAFETY: see the impl.
            return unsafe { map(layout.size()) };
        }
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        #[cfg(target_os = "linux")]
        if is_large(layout) {
            // SAFETY: see the impl; a fresh anonymous mapping reads as zeros.
            return unsafe { map(layout.size()) };
        }
        // SAFETY: as in `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        #[cfg(target_os = "linux")]
        if is_large(layout) {
            // SAFETY: a large layout's block came from `map`.
            unsafe { unmap(ptr, layout.size()) };
            return;
        }
        // SAFETY: a small layout's block came from the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: the caller guarantees `new_size`, rounded up to the alignment, does not
            // overflow.
            let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
            if is_large(layout) || is_large(new) {
                if is_large(layout) && is_large(new) && mapped_len(layout.size()) == mapped_len(new_size) {
                    // The same mapping holds it.
                    return ptr;
                }
                // SAFETY: a new block, the old one's bytes copied into it, then the old
                // released with the layout it was made for.
                unsafe {
                    let p = self.alloc(new);
                    if !p.is_null() {
                        std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                    return p;
                }
            }
        }
        // SAFETY: a small block stays the system allocator's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[cfg(test)]
mod tests {
    /// The allocator called directly (the library declares no global allocator): a large block
    /// is its own mapping, zeroed, at a huge page's boundary, and keeps its bytes when it grows
    /// past its mapping and when it shrinks back to the system allocator; a small block grown
    /// into a large one keeps its bytes too.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_block_is_aligned_zeroed_and_keeps_its_bytes_when_it_grows_and_shrinks() {
        use super::{Allocator, HUGE, LARGE};
        use std::alloc::{GlobalAlloc, Layout};
        let a = Allocator;
        let n = LARGE + LARGE / 2;
        let layout = Layout::from_size_align(n, 8).unwrap();
        // SAFETY: every pointer is used within the layout it was allocated or reallocated with,
        // and released with that layout.
        unsafe {
            let p = a.alloc_zeroed(layout);
            assert!(!p.is_null());
            assert_eq!(p as usize % HUGE, 0);
            let bytes = std::slice::from_raw_parts_mut(p, n);
            assert!(bytes.iter().all(|&x| x == 0));
            bytes.iter_mut().enumerate().for_each(|(i, x)| *x = (i % 251) as u8);
            // Grown past its mapping (a new one, copied).
            let grown = n + HUGE;
            let q = a.realloc(p, layout, grown);
            assert!(std::slice::from_raw_parts(q, n).iter().enumerate().all(|(i, &x)| x == (i % 251) as u8));
            // Shrunk below the threshold (back to the system allocator, copied).
            let r = a.realloc(q, Layout::from_size_align(grown, 8).unwrap(), 1_000);
            assert!(std::slice::from_raw_parts(r, 1_000).iter().enumerate().all(|(i, &x)| x == (i % 251) as u8));
            a.dealloc(r, Layout::from_size_align(1_000, 8).unwrap());
            // A small block grown into a large one.
            let small = Layout::from_size_align(16, 8).unwrap();
            let w = a.alloc(small);
            std::ptr::write_bytes(w, 7, 16);
            let w = a.realloc(w, small, LARGE + 1);
            assert!(std::slice::from_raw_parts(w, 16).iter().all(|&x| x == 7));
            a.dealloc(w, Layout::from_size_align(LARGE + 1, 8).unwrap());
        }
    }
}
