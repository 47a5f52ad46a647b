/// What made a file: cachebench's version and the Swift it was built with (`--version`, the HTML
/// report's provenance).
package enum CachebenchVersion {
  /// The release: bumped with the changes users see (commands, columns, formats).
  package static let number = "0.26.0"

  /// The compiler the binary was built with, as far as `#if compiler` tells.
  package static var toolchain: String {
    #if compiler(>=6.4)
      "Swift 6.4 or later"
    #elseif compiler(>=6.3)
      "Swift 6.3"
    #elseif compiler(>=6.2)
      "Swift 6.2"
    #elseif compiler(>=6.1)
      "Swift 6.1"
    #else
      "Swift 6.0"
    #endif
  }
}
