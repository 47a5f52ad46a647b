import NormalizedCache
import Results

/// The records of the list scenarios (docs/workloads.md#lists): an `Owner` with a few scalar
/// fields and the list field `items` of N elements, as the normalizer would write an object with
/// a list: strings, references to `Item` records, or lists of strings.
///
/// ```swift
/// let record = ListRecords.record(key: "Owner:scalars_3", .scalars, size: 3)
/// // Owner:scalars_3 {__typename: "Owner", id: "scalars_3", count: 3, items: ["item_0", "item_1", "item_2"]}
/// ListRecords.record(key: "Owner:nested_12", .nested, size: 12, change: .init(index: 11, iteration: 4))
/// // items: [["item_0", …, "item_9"], ["item_10", "changed_4"]]
/// ```
enum ListRecords {
  /// The list field.
  static let listField = "items"
  /// The length of a nested list's inner lists (the last holds the rest).
  static let nestedWidth = 10

  /// One element changed: the element at `index` (of the N, counted through the inner lists of a
  /// nested list) holds the value of mutation `iteration`, different for every iteration.
  struct Change: Equatable {
    let index: Int
    let iteration: Int
  }

  /// The record the read and mutate scenarios use: `Owner:<elements>_<size>`.
  static func key(_ elements: ListScenario.Elements, size: Int) -> CacheKey {
    "Owner:\(elements.rawValue)_\(size)"
  }

  /// The write scenario's record of iteration `index`, and the footprint's records:
  /// `Owner:<elements>_<size>_<index>`.
  static func key(_ elements: ListScenario.Elements, size: Int, index: Int) -> CacheKey {
    "Owner:\(elements.rawValue)_\(size)_\(index)"
  }

  /// A record of `key` whose `items` hold `size` elements of kind `elements`, `change` applied.
  static func record(key: CacheKey, _ elements: ListScenario.Elements, size: Int, change: Change? = nil) -> Record {
    var builder = Record.Builder(key: key, capacity: 64 + size * 12)
    builder.append("__typename", "Owner")
    builder.append("id", .string(String(key.dropFirst("Owner:".count))))
    builder.append("count", .int(size))
    builder.append(listField, list(elements, size: size, change: change))
    return builder.build()
  }

  /// The list: `item_<i>` strings, references to `Item:<i>`, or ⌈size / 10⌉ lists of `item_<i>`.
  static func list(_ elements: ListScenario.Elements, size: Int, change: Change? = nil) -> RecordValue {
    func element(_ index: Int) -> RecordValue {
      if let change, change.index == index { return changedValue(elements, iteration: change.iteration) }
      return elements == .references ? .reference("Item:\(index)") : .string("item_\(index)")
    }
    guard elements == .nested else { return .list((0..<size).map(element)) }
    return .list(
      stride(from: 0, to: size, by: nestedWidth).map { start in
        .list((start..<min(size, start + nestedWidth)).map(element))
      })
  }

  /// What mutation `iteration` writes at the changed index: `changed_<iteration>`, or a reference
  /// to `Item:changed_<iteration>`.
  static func changedValue(_ elements: ListScenario.Elements, iteration: Int) -> RecordValue {
    elements == .references ? .reference("Item:changed_\(iteration)") : .string("changed_\(iteration)")
  }

  /// The elements of a stored list, a nested list's inner lists flattened in order; nil for a
  /// value that is not a list of the kind.
  static func elements(of value: RecordValue?, _ elements: ListScenario.Elements) -> [RecordValue]? {
    guard case .list(let outer) = value else { return nil }
    guard elements == .nested else { return outer }
    var flat: [RecordValue] = []
    for inner in outer {
      guard case .list(let values) = inner else { return nil }
      flat += values
    }
    return flat
  }
}
