/// Gives freed heap back to the operating system. glibc keeps what a burst of connections
/// freed for reuse, so after 1,000 streams leave the process would stay at its peak size;
/// `malloc_trim` returns the free pages (a few milliseconds, done only after a crowd left).
enum MemoryRelease {
    static func now() {
        #if os(Linux)
            _ = glibcMallocTrim(0)
        #endif
    }
}

#if os(Linux)
    // glibc's `int malloc_trim(size_t pad)`, from <malloc.h>, which the Glibc module leaves out.
    @_silgen_name("malloc_trim")
    private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
