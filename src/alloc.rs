//! The process's allocator: the system's, except that on Linux a block of 1 MiB or more is
//! mapped on its own, aligned to 2 MiB and advised to the kernel as transparent huge pages.
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

/// The allocator `ddbsim` runs on (see the module's documentation).
pub(crate) struct Allocator;

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
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_block_is_aligned_zeroed_and_keeps_its_bytes_when_it_grows_and_shrinks() {
        use super::{HUGE, LARGE};
        // 1.5 MiB of u64: a block of its own, zeroed, at a huge page's boundary.
        let mut v = vec![0u64; (LARGE + LARGE / 2) / 8];
        assert_eq!(v.as_ptr() as usize % HUGE, 0);
        assert!(v.iter().all(|&x| x == 0));
        v.iter_mut().enumerate().for_each(|(i, x)| *x = i as u64);
        // Grown past its mapping (a new one, copied), then shrunk below the threshold (back
        // to the system allocator, copied).
        v.reserve_exact(HUGE / 8);
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64));
        v.truncate(1000);
        v.shrink_to_fit();
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64));
        // And a small block grown into a large one.
        let mut w: Vec<u8> = Vec::with_capacity(16);
        w.extend(std::iter::repeat_n(7u8, LARGE + 1));
        assert!(w.iter().all(|&x| x == 7));
    }
}
