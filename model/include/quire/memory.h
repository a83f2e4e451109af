// Freed memory handed back to the system. An allocator keeps the pages a program frees for
// its next allocations, and returns them only after a while: right after a build has let go
// of most of a book (its extracted pages, the verifier's words), those pages would still be
// counted while the book is written. The binary that picks the allocator says how to hand
// them back; the stages say when.
#pragma once

namespace quire {

using MemoryRelease = void (*)();

// Installs how freed pages are handed back (nullptr: not at all, the default).
void set_memory_release(MemoryRelease release);

// Hands back the pages the allocator holds free now, if the binary said how. Safe from any
// thread; changes nothing but the memory the process holds.
void release_free_memory();

}  // namespace quire
