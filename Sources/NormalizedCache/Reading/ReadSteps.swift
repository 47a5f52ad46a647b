import GraphQLLanguage

/// A selection's fields as the reader walks them for thousands of records: plain values and
/// unowned references, so that a walk counts no references but the response keys it puts in
/// the response (a field's class, its child plan and its name's bytes were retained and released
/// for every field of every record).
final class ReadSteps {
  struct Step {
    let name: RecordCodec.FieldName.Probe
    let responseKey: String
    /// The field, for what is rare: field policies, misses, nulls and lists checked against the schema.
    let field: Unmanaged<PlannedField>
    let child: Unmanaged<SelectionPlan>?
    let isConditional: Bool
    /// Whether the schema's type of the field is non-null at some level: a null or a list there is checked.
    let checksNulls: Bool
    /// The schema's type of the field, and of its list's elements, in boxes of the steps' own
    /// (``owned(_:)``): nil without a schema.
    let type: TypeReference?
    let elementType: TypeReference?
    /// The field's `maxAge` in seconds (``PlannedField/maxAge``), -1 when it never expires.
    let maxAge: Int
  }

  /// The steps, in the selection's order; valid while this lives.
  let buffer: UnsafeBufferPointer<Step>
  /// The field keys' encoded prefixes, one after another, which the steps' probes point into.
  private let prefixes: UnsafeMutableRawBufferPointer
  /// The fields the steps point to, kept alive with them.
  private let fields: [PlannedField]

  /// Three allocations, whatever the number of fields: a plan made for one response is read once.
  init(_ fields: [PlannedField]) {
    self.fields = fields
    let encoded = RecordCodec.FieldName.prefixes(of: fields.lazy.map(\.fieldKey))
    prefixes = .allocate(byteCount: max(encoded.count, 1), alignment: 8)
    prefixes.copyBytes(from: encoded)
    let steps = UnsafeMutableBufferPointer<Step>.allocate(capacity: fields.count)
    var offset = 0
    for (index, field) in fields.enumerated() {
      // The prefix's length: its varint and the name.
      var end = offset
      let nameLength = Int(Varint.read(UnsafeRawBufferPointer(prefixes), &end))
      end += nameLength
      let probe = RecordCodec.FieldName.Probe(prefix: UnsafeRawBufferPointer(rebasing: prefixes[offset..<end]))
      offset = end
      (steps.baseAddress! + index).initialize(
        to: Step(
          name: probe, responseKey: field.responseKey, field: Unmanaged.passUnretained(field),
          child: field.child.map { Unmanaged.passUnretained($0) }, isConditional: field.isConditional,
          checksNulls: field.definition.map { Self.hasNonNull($0.type) } ?? false,
          type: field.definition.map { Self.owned($0.type) },
          elementType: field.definition.flatMap { Self.elementType(of: Self.owned($0.type)) },
          maxAge: field.maxAge ?? -1))
    }
    buffer = UnsafeBufferPointer(steps)
  }

  deinit {
    let steps = UnsafeMutableBufferPointer(mutating: buffer)
    steps.baseAddress?.deinitialize(count: steps.count)
    steps.deallocate()
    prefixes.deallocate()
  }

  /// A copy of `type` in boxes (and a name) of its own. The schema's are shared by the plans of
  /// every thread, and a read that checks a null copies the type, which writes the box's reference
  /// count: threads reading the same fields would write the same cache lines.
  static func owned(_ type: TypeReference) -> TypeReference {
    switch type {
    case .named(let name): .named(name.withCString { String(cString: $0) })
    case .list(let element): .list(owned(element))
    case .nonNull(let inner): .nonNull(owned(inner))
    }
  }

  /// The type of a list's elements; nil when the type is not a list.
  static func elementType(of type: TypeReference) -> TypeReference? {
    switch type {
    case .nonNull(let inner): elementType(of: inner)
    case .list(let element): element
    case .named: nil
    }
  }

  private static func hasNonNull(_ type: TypeReference) -> Bool {
    switch type {
    case .nonNull: true
    case .list(let element): hasNonNull(element)
    case .named: false
    }
  }
}
