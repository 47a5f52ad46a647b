/// One timed scenario of a `lists` workload (docs/metrics.md#lists): an operation on a record
/// whose list field holds `size` elements of one kind, ADR 0006's `read-record-with-list-of-N`,
/// `write-list-of-N` and `mutate-element-at-position-K-in-list-of-N`.
///
/// ```swift
/// ListScenario(.mutate, .references, size: 1_000).metric   // lists/mutate_references_1000
/// ```
package struct ListScenario: Sendable, Hashable {
  /// What one iteration does to the record.
  package enum Operation: String, Sendable, CaseIterable {
    /// `loadRecords(forKeys:)` of the record, in a store holding it.
    case read
    /// A merge of the record under a key new to the store.
    case write
    /// A merge of the record with one element changed, into a store holding it.
    case mutate
  }

  /// What the list holds.
  package enum Elements: String, Sendable, CaseIterable {
    /// Strings.
    case scalars
    /// References to other records, as the normalizer writes a list of objects.
    case references
    /// Lists of ten strings each (the last holds the rest), `size` strings in all.
    case nested
  }

  package let operation: Operation
  package let elements: Elements
  package let size: Int

  package init(_ operation: Operation, _ elements: Elements, size: Int) {
    self.operation = operation
    self.elements = elements
    self.size = size
  }

  /// Its metric, ``Metric/list(_:)``.
  package var metric: Metric { .list(self) }
}
