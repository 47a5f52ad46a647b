import Workbench

/// The text `cachebench worker` and `ab --paired` speak over the worker's standard input and
/// output: one request per line, one reply per line (the rows after `ready` excepted), fields
/// separated by tabs.
///
/// ```
/// > hello                      < cachebench-worker	1	0.26.0
/// > prepare                    < ready	<workload>	<seed>	<rows>
///                              < row	<variant>	<store>	<keys>	<merge|read|lookup>	<size>   (one per row)
/// > step	<row>	<index>	<count>  < ns	<nanoseconds>
/// > quit                       (the worker exits 0)
/// ```
///
/// A worker that fails answers `error	<message>` and exits with its code. A build without a worker
/// mode fails the `hello` (`cachebench: Unknown command 'worker'`), which is how `ab --paired`
/// knows to fall back to whole runs.
enum WorkerProtocol {
  /// The first field of the answer to `hello`.
  static let greeting = "cachebench-worker"
  /// Bumped when a request or reply changes meaning; both sides must speak the same.
  static let version = 1

  /// Tabs and line breaks in a name (a store's label) would break a line apart.
  static func field(_ text: String) -> String {
    String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
  }

  static func line(_ fields: [String]) -> String {
    fields.map(field).joined(separator: "\t") + "\n"
  }

  static func rowLine(_ row: StepRow) -> String {
    line(["row", row.variant, row.store, row.keys, row.kind.rawValue, String(row.size)])
  }

  /// The row of a `row` line, nil when it is not one.
  static func row(_ line: String) -> StepRow? {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 6, fields[0] == "row", let kind = StepKind(rawValue: fields[4]), let size = Int(fields[5]), size > 0 else {
      return nil
    }
    return StepRow(variant: fields[1], store: fields[2], keys: fields[3], kind: kind, size: size)
  }
}
