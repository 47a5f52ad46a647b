import Foundation

/// A results CSV read back for checks: its header and rows as dictionaries (fields have no quotes
/// or commas in what cachebench writes for these workloads).
struct CSVFile {
  let header: [String]
  let rows: [[String: String]]

  init(path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    let header = lines.first.map { $0.components(separatedBy: ",") } ?? []
    self.header = header
    rows = lines.dropFirst().map { line in
      Dictionary(uniqueKeysWithValues: zip(header, line.components(separatedBy: ",")))
    }
  }
}

let metricColumns =
  "run_id,timestamp,git_rev,host,workload,variant,store,keys,phase,metric,unit,better,deterministic,n,min,p50,p90,p99,max,mean,stddev"
