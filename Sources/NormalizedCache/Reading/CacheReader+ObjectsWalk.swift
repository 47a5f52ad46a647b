import GraphQLLanguage

/// A field with a selection, read from its record's bytes by the walk of the value grammar
/// (invariant 7 of `RecordBytes.swift`): null, a reference to an object (placed for the next
/// level), or a list of them, nested. A null where the schema says non-null fails the read; a
/// scalar where the operation selects objects is a miss. The execution is the visitor (it places
/// the objects); this is where the walk is. The paths of a list's elements are spelled only where
/// an object or an error needs one.
struct ObjectsWalk {
  /// What fails the read, spelled out for the caller, which knows the record: a null where the
  /// schema says non-null (its type and path), or a scalar where objects are selected (a miss).
  enum Failure: Error {
    case null(TypeReference, path: [String])
    case scalar(path: [String])
  }

  /// A list being read: its slots so far, and where the walk was around it.
  struct List {
    var slots: [PendingValue]
    let outer: Place
  }

  /// Where the walk is: in the field's value itself, or in a list of it, reading one element.
  struct Place {
    var inList = false
    /// The list's path.
    var listPath: ResponsePath = 0
    /// The type of the list's elements as the schema gives it.
    var elementType: TypeReference?
    /// The element being read.
    var index = 0
  }

  /// The field's step and the plan of its objects; nil between walks.
  var step: UnsafePointer<ReadSteps.Step>?
  var child: Unmanaged<SelectionPlan>?
  /// The path of the object whose field this is.
  var parent: ResponsePath = -1
  var place = Place()
  /// The objects of the next level, moved in for the walk.
  var next: [Execution.Pending] = []

  /// A walk of another field begins (field by field, so that nothing is released and made again).
  @inline(__always)
  mutating func begin(step: UnsafePointer<ReadSteps.Step>, child: Unmanaged<SelectionPlan>, parent: ResponsePath) {
    self.step = step
    self.child = child
    self.parent = parent
    place.inList = false
  }
}

extension Execution: RecordValueVisitor {
  typealias Value = PendingValue
  typealias List = ObjectsWalk.List
  typealias Failure = ObjectsWalk.Failure

  static var source: RecordValueSource { .trusted }

  /// The path of the value being read, made now (it costs an entry in ``paths``).
  @inline(__always)
  private mutating func walkPath() -> ResponsePath {
    guard objects.place.inList else { return path(objects.parent, .key(objects.step!.pointee.field)) }
    return path(objects.place.listPath, .index(objects.place.index))
  }

  /// The path of the value being read, spelled out: for an error.
  private mutating func spelledWalkPath() -> [String] {
    guard objects.place.inList else { return components(objects.parent) + [objects.step!.pointee.responseKey] }
    // The path made first: `components` reads the paths after it was added.
    let path = walkPath()
    return components(path)
  }

  @inline(__always)
  mutating func null(_ token: Range<Int>) throws(Failure) -> PendingValue {
    guard objects.place.inList else {
      let step = objects.step!
      if step.pointee.checksNulls, let type = step.pointee.type, case .nonNull = type {
        throw .null(type, path: spelledWalkPath())
      }
      return .null
    }
    if case .nonNull? = objects.place.elementType { throw .null(objects.place.elementType!, path: spelledWalkPath()) }
    return .null
  }

  @inline(__always)
  mutating func reference(_ key: UnsafeRawBufferPointer, _ token: Range<Int>) -> PendingValue {
    // As ``placeholder(for:plan:path:next:)`` does, into the walk's next level.
    let path = walkPath()
    let number = nodes.count
    nodes.append([])
    objects.next.append(Pending(key: String(decoding: key, as: UTF8.self), plan: objects.child!, node: number, path: path))
    return .object(number)
  }

  @inline(__always)
  mutating func beginList(count: Int, _ token: Range<Int>) -> List {
    let elementType =
      if objects.place.inList {
        objects.place.elementType.flatMap(Self.elementType(of:))
      } else {
        // The step's own copy of the type: reading the schema's would write its reference counts.
        objects.step!.pointee.elementType
      }
    // The list's own path, where the walk is around it.
    let path = walkPath()
    var slots: [PendingValue] = []
    slots.reserveCapacity(count)
    defer { objects.place = ObjectsWalk.Place(inList: true, listPath: path, elementType: elementType) }
    return List(slots: slots, outer: objects.place)
  }

  @inline(__always)
  mutating func append(_ element: consuming PendingValue, to list: inout List) {
    list.slots.append(element)
    objects.place.index += 1
  }

  @inline(__always)
  mutating func endList(_ list: consuming List) -> PendingValue {
    objects.place = list.outer
    return .list(list.slots)
  }

  // A scalar where the operation selects an object: the cache cannot answer this field.
  mutating func bool(_ value: Bool, _ token: Range<Int>) throws(Failure) -> PendingValue {
    throw .scalar(path: spelledWalkPath())
  }
  mutating func int(_ value: Int, _ token: Range<Int>) throws(Failure) -> PendingValue {
    throw .scalar(path: spelledWalkPath())
  }
  mutating func double(_ value: Double, _ token: Range<Int>) throws(Failure) -> PendingValue {
    throw .scalar(path: spelledWalkPath())
  }
  mutating func string(_ utf8: UnsafeRawBufferPointer, _ token: Range<Int>) throws(Failure) -> PendingValue {
    throw .scalar(path: spelledWalkPath())
  }

  /// Trusted bytes: never called.
  func malformed(_ value: MalformedValue) -> Failure { .scalar(path: []) }
}
