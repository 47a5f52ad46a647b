/// The knobs of the synthetic workload generator (docs/workloads.md, `generator`).
///
/// ```swift
/// var config = GeneratorConfig()
/// config.responses = 500
/// config.duplication = 0.9
/// try config.validate()
/// let workload = try Generator.make(seed: 42, config: config)
/// ```
/// Every knob has a default, so a workload names only what it changes. Ranges are checked by
/// ``validate()``, which names the knob at fault.
public struct GeneratorConfig: Sendable, Hashable {
  /// An inclusive range of integers whose ends a workload file sets, checked by
  /// ``GeneratorConfig/validate()`` (a `ClosedRange` would trap on `min > max` instead).
  public struct Bounds: Sendable, Hashable, CustomStringConvertible {
    public var min: Int
    public var max: Int

    public init(_ min: Int, _ max: Int) {
      self.min = min
      self.max = max
    }

    public init(_ range: ClosedRange<Int>) {
      self.init(range.lowerBound, range.upperBound)
    }

    /// The mean of a uniform draw from the range.
    public var mean: Double { Double(min + max) / 2 }

    public var description: String { "\(min)...\(max)" }

    var range: ClosedRange<Int> { min...Swift.max(min, max) }
  }

  /// How many responses the workload has; response `i` runs operation `i % operations`.
  /// Range 1...2_147_483_647; default 100.
  public var responses = 100

  /// How many distinct operations (GraphQL documents) the workload has. Range 1...10_000; default 8.
  public var operations = 8

  /// Nesting depth of objects below the root: 1 selects root objects with scalars only; each
  /// level more nests one more object level. Range 1...32; default 4.
  public var depth = 4

  /// Object fields selected per object above the deepest level (the tree's branching before list
  /// lengths). Each type has `fanOut + 1` object fields, so operations choose among them.
  /// Range 1...16; default 2.
  public var fanOut = 2

  /// Length of lists of objects (root lists and list fields), drawn uniformly per list; a second,
  /// aliased selection of a list field (`previewReviews: reviews(first: 2)`) asks for
  /// `max(1, max / 2)` of them. Range 0...10_000 with min ≤ max; default 2...5.
  public var listLength = Bounds(2, 5)

  /// Share of object fields in the schema that are lists (the rest hold one object).
  /// Range 0...1; default 0.4.
  public var listShare = 0.4

  /// Number of object types in the schema (besides `Query`). Range 1...10_000; default 16.
  public var types = 16

  /// Scalar fields per object type, besides its key fields (more when an interface it
  /// implements needs them). Range 1...500; default 6, or
  /// ``NarrowReadsConfig/defaultFieldsPerType`` (40) with ``narrowReads``, whose `of` in a
  /// workload file is this same count (docs/workloads.md#generator): the one count of the
  /// fields per type, stored once.
  public var fieldsPerType: Int {
    get { givenFieldsPerType ?? (narrowReads == nil ? 6 : NarrowReadsConfig.defaultFieldsPerType) }
    set { givenFieldsPerType = newValue }
  }

  /// ``fieldsPerType`` as set (by `fieldsPerType` or `narrowReads.of` in a file); nil: its default.
  var givenFieldsPerType: Int?

  /// Entities per keyed type that occurrences reuse (ranks of the Zipf draw).
  /// Range 1...10_000_000; default 64.
  public var poolSize = 64

  /// Probability that an occurrence of a keyed object reuses an entity of its type's pool
  /// instead of being a new entity: 0 makes every occurrence new (object ratio 1 under
  /// `typePolicy`), 1 draws every occurrence from the pools. Range 0...1; default 0.5.
  public var duplication = 0.5

  /// Skew of reuse: pool entity `k` is drawn with weight `1 / (k + 1)^zipf`; 0 is uniform, higher
  /// reuses fewer entities more often. Range 0...100; default 1.
  public var zipf = 1.0

  /// Share of object types that have a key (`@typePolicy`, on the type or inherited from an
  /// interface); the rest are value objects stored under their path. Range 0...1; default 0.75.
  public var keyedShare = 0.75

  /// Share of keyed types whose key has two or three fields (`@typePolicy(keyFields: "sku region")`)
  /// instead of `id`. Range 0...1; default 0.2.
  public var compositeKeyShare = 0.2

  /// Number of interfaces. About half (when there are `id`-keyed types) declare
  /// `@typePolicy(keyFields: "id")`, inherited by their implementations. Range 0...1_000; default 2.
  public var interfaces = 2

  /// Number of unions, of two to four members each. Range 0...1_000; default 1.
  public var unions = 1

  /// Length of generated string values, in Unicode scalars, drawn uniformly per value.
  /// Range 0...1_000_000 with min ≤ max; default 6...24.
  public var stringLength = Bounds(6, 24)

  /// `@cacheControl` directives on the schema's types and fields (docs/ttl.md); nil (the default)
  /// writes none, and nothing expires.
  public var cacheControl: CacheControlConfig?

  /// Narrow list reads beside whole detail reads of the same entities (docs/workloads.md,
  /// `narrowReads`): nil (the default) draws operations as the other knobs say.
  public var narrowReads: NarrowReadsConfig?

  public init() {}

  /// How many of the ``types`` have a key: `types × keyedShare`, rounded.
  var keyedTypeCount: Int { Int((Double(types) * keyedShare).rounded()) }

  /// Equal when every knob is, as ``json`` writes them: the fields per type by their value,
  /// whether set or at their default.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.json == rhs.json }

  public func hash(into hasher: inout Hasher) { hasher.combine(json) }
}

/// How the generator puts `@cacheControl` on its schema (`generator.cacheControl`), drawn from a
/// stream of its own, so that a workload's responses and operations are the same with or without.
///
/// ```json
/// {"share": 0.5, "maxAge": {"min": 60, "max": 3600}, "zeroShare": 0.02}
/// ```
public struct CacheControlConfig: Sendable, Hashable {
  /// Share of object types (`Query` aside) with a `maxAge` of their own, which their scalar fields
  /// inherit, and share of fields (of every object type and of `Query`) with one of their own.
  /// Range 0...1; default 0.5.
  public var share = 0.5
  /// The `maxAge` of each directive, in seconds, drawn uniformly. Range 0...2_147_483_647 with
  /// min ≤ max; default 60...3600.
  public var maxAge = GeneratorConfig.Bounds(60, 3600)
  /// Share of the directives whose `maxAge` is 0 instead (expired at once on a strict read).
  /// Range 0...1; default 0.02.
  public var zeroShare = 0.02

  public init() {}
}

/// Reads that test projection (`generator.narrowReads`): for each keyed type, a list screen that
/// selects `fields` of its ``GeneratorConfig/fieldsPerType`` scalar fields and a detail screen
/// that selects all of them, over the same pool of entities, with `share` of the responses narrow.
///
/// ```json
/// {"fields": 3, "of": 40, "share": 0.5}
/// ```
/// `of`, in a file, is ``GeneratorConfig/fieldsPerType`` (40 by default with narrow reads): one
/// count, which the configuration stores once. When set, the operations are these two per keyed
/// type (`operations`, `depth`, `fanOut` and `listShare` then shape nothing), and response `i`
/// reads keyed type `i mod T`, narrowly with probability `share`, drawn from the seed. A list is
/// always page 1 with new elements, so a workload with it needs `"read": {"verify": false}`.
public struct NarrowReadsConfig: Sendable, Hashable {
  /// Scalar fields a narrow read selects: the type's first `fields`. Range 1...`fieldsPerType`;
  /// default 3.
  public var fields = 3
  /// Share of the responses that are narrow reads. Range 0...1; default 0.5.
  public var share = 0.5

  /// The fields per type with narrow reads, unless the file gives them: 40.
  public static let defaultFieldsPerType = 40

  public init() {}

  public init(fields: Int, share: Double) {
    self.fields = fields
    self.share = share
  }
}
