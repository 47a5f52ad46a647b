#if canImport(Glibc)
  import Glibc
#endif

/// Address-space layout randomisation, off for the workers of `ab --paired` (Linux).
///
/// Two processes of one binary place their heap, stack and libraries at random addresses, and
/// how those addresses fall on the caches and the TLB made one row of an A/A run 4-7% slower in
/// one process than in the other for the whole run (quick point lookups in the memory store),
/// with Swift's hashing already seeded alike. Without randomisation a layout is a property of
/// the build and its path, not of the process: the same build on both sides gets the same one.
/// The setting (`personality(ADDR_NO_RANDOMIZE)`, what `setarch -R` does) applies to the
/// programs this process starts, not to itself; where it is refused (a sandbox), the workers
/// keep randomisation and the run goes on.
enum AddressLayout {
  /// `ADDR_NO_RANDOMIZE` of `<sys/personality.h>`.
  static let noRandomize: UInt = 0x0040000

  static func fixForChildren() {
    #if os(Linux)
      // Glibc's Swift module does not import <sys/personality.h>: the C function, found by name.
      guard let symbol = dlsym(nil, "personality") else { return }
      let personality = unsafeBitCast(symbol, to: (@convention(c) (UInt) -> Int32).self)
      let current = personality(0xFFFF_FFFF)
      guard current >= 0 else { return }
      _ = personality(UInt(current) | noRandomize)
    #endif
  }
}
