#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The size of a file in bytes; 0 when it does not exist.
func fileSize(_ path: String) -> Int {
  var info = stat()
  guard stat(path, &info) == 0 else { return 0 }
  return Int(info.st_size)
}
