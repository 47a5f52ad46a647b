import Foundation
import Workloads

/// Any bytes as a workload file: loaded and checked, or an error naming the file and key. Never a
/// crash, a hang or a huge allocation (generator estimates are checked, not generated).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let path = directory + "/w.json"
  FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
  if let workload = try? Workload.load(path) {
    _ = try? WorkloadChecker.check(workload)
    _ = workload.variants
  }
  return 0
}

/// One directory for the process's inputs: relative paths in a workload resolve inside it.
nonisolated(unsafe) let directory: String = {
  let path = NSTemporaryDirectory() + "cachebench-fuzz-\(getpid())"
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}()
