/// Errors of the workbench that carry the exit code the command line should use.
public protocol ExitCodeCarrying: Error {
  /// One of SPEC §7's codes: 1, 2, 64, 65, 66 or 74.
  var exitCodeValue: Int32 { get }
}

extension InputError: ExitCodeCarrying {
  public var exitCodeValue: Int32 { 66 }
}

/// The exit code an error of the workbench means, if it says.
public func exitCodeValue(for error: Error) -> Int32? {
  (error as? ExitCodeCarrying)?.exitCodeValue
}

extension CSVError: ExitCodeCarrying {
  public var exitCodeValue: Int32 { 65 }
}

extension ComparisonError: ExitCodeCarrying {
  public var exitCodeValue: Int32 { 65 }
}

extension GeneratorConfigError: ExitCodeCarrying {
  public var exitCodeValue: Int32 { 65 }
}

extension GeneratorOutputError: ExitCodeCarrying {
  public var exitCodeValue: Int32 { 74 }
}
