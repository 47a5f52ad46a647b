import Generator
import GraphQLLanguage
import Testing

@Suite("Each knob changes what it says")
struct GeneratorKnobTests {
  @Test("responses sets the number of responses", arguments: [1, 7])
  func responses(count: Int) throws {
    let workload = try GeneratorTestSupport.make { $0.responses = count }
    #expect(workload.responseCount == count)
    #expect(Array(workload.responses).count == count)
  }

  @Test("operations sets the number of distinct operations, responses cycling through them", arguments: [1, 5])
  func operations(count: Int) throws {
    let workload = try GeneratorTestSupport.make { $0.operations = count }
    #expect(workload.operations.count == count)
    #expect(Set(workload.operations.map(\.name)).count == count)
    #expect(Set(workload.responses.map(\.operationName)).count == min(count, workload.responseCount))
  }

  @Test("depth sets how deep objects nest in the responses", arguments: [1, 2, 5])
  func depth(_ depth: Int) throws {
    let workload = try GeneratorTestSupport.make {
      $0.depth = depth
      $0.fanOut = 1
    }
    #expect(try GeneratorTestSupport.shape(of: workload).maxDepth == depth)
  }

  @Test("fanOut sets how many object fields an object has", arguments: [1, 3])
  func fanOut(_ fanOut: Int) throws {
    let workload = try GeneratorTestSupport.make { $0.fanOut = fanOut }
    #expect(try GeneratorTestSupport.shape(of: workload).maxObjectMembers == fanOut)
  }

  @Test("listLength bounds and lengthens lists")
  func listLength() throws {
    let short = try GeneratorTestSupport.shape(of: GeneratorTestSupport.make { $0.listLength = .init(1, 2) })
    let long = try GeneratorTestSupport.shape(of: GeneratorTestSupport.make { $0.listLength = .init(6, 8) })
    #expect(short.listLengths.allSatisfy { (1...2).contains($0) })
    #expect(long.listLengths.allSatisfy { $0 <= 8 })
    #expect(long.meanListLength > short.meanListLength + 3)
  }

  @Test("listShare 0 makes every object field hold one object, 1 a list")
  func listShare() throws {
    let none = try Schema(parsing: GeneratorTestSupport.make { $0.listShare = 0 }.schemaSources)
    let all = try Schema(parsing: GeneratorTestSupport.make { $0.listShare = 1 }.schemaSources)
    #expect(objectFields(of: none).allSatisfy { !$0.type.isList })
    #expect(objectFields(of: all).allSatisfy { $0.type.isList })
  }

  @Test("stringLength lengthens strings")
  func stringLength() throws {
    let short = try GeneratorTestSupport.shape(of: GeneratorTestSupport.make { $0.stringLength = .init(2, 4) })
    let long = try GeneratorTestSupport.shape(of: GeneratorTestSupport.make { $0.stringLength = .init(60, 80) })
    #expect(long.meanStringLength > short.meanStringLength * 3)
    #expect(long.stringLengths.max()! >= 60)
  }

  @Test("types sets the number of object types", arguments: [1, 12, 80])
  func types(_ count: Int) throws {
    let schema = try Schema(parsing: GeneratorTestSupport.make { $0.types = count }.schemaSources)
    #expect(schema.types.values.filter { $0.kind == .object && $0.name != "Query" }.count == count)
  }

  @Test("fieldsPerType sets the scalar fields of each type besides its key", arguments: [2, 50])
  func fieldsPerType(_ count: Int) throws {
    let workload = try GeneratorTestSupport.make { $0.fieldsPerType = count }
    let schema = try Schema(parsing: workload.schemaSources)
    for type in schema.types.values where type.kind == .object && type.name != "Query" {
      let keyFields = Set(schema.typePolicy(for: type.name)?.keyFields ?? [])
      let scalars = type.fields.values.filter {
        schema.type(named: $0.type.namedType)?.isLeaf ?? false && !keyFields.contains($0.name)
      }
      // More only when the type's interfaces need more fields than the knob gives.
      #expect(scalars.count >= count, "\(type.name)")
      if count >= 10 { #expect(scalars.count == count, "\(type.name)") }
    }
  }

  @Test("keyedShare 0 declares no @typePolicy and no @fieldPolicy")
  func noKeys() throws {
    let workload = try GeneratorTestSupport.make { $0.keyedShare = 0 }
    let schema = try Schema(parsing: workload.schemaSources)
    #expect(schema.ownTypePolicies.isEmpty)
    #expect(schema.fieldPolicies.isEmpty)
    #expect(!workload.extensionsSDL.contains("extend"))
  }

  @Test("keyedShare 1 keys every type, some through an interface's policy")
  func allKeyed() throws {
    let schema = try Schema(parsing: GeneratorTestSupport.make { $0.keyedShare = 1 }.schemaSources)
    let objects = schema.types.values.filter { $0.kind == .object && $0.name != "Query" }
    #expect(objects.allSatisfy { schema.typePolicy(for: $0.name) != nil })
    #expect(objects.contains { schema.typePolicy(for: $0.name)?.declaredOn != $0.name })
    #expect(schema.ownTypePolicies.values.contains { schema.type(named: $0.declaredOn)?.kind == .interface })
  }

  @Test("compositeKeyShare 1 gives every key several fields; 0 keys every keyed type by id")
  func compositeKeys() throws {
    let composite = try Schema(parsing: GeneratorTestSupport.make { $0.compositeKeyShare = 1 }.schemaSources)
    #expect(!composite.ownTypePolicies.isEmpty)
    #expect(composite.ownTypePolicies.values.allSatisfy { $0.keyFields.count >= 2 })
    let single = try Schema(parsing: GeneratorTestSupport.make { $0.compositeKeyShare = 0 }.schemaSources)
    #expect(single.ownTypePolicies.values.allSatisfy { $0.keyFields == ["id"] })
  }

  @Test("interfaces and unions set how many of each the schema has", arguments: [(0, 0), (3, 2), (7, 5)])
  func abstractTypes(interfaces: Int, unions: Int) throws {
    let workload = try GeneratorTestSupport.make {
      $0.interfaces = interfaces
      $0.unions = unions
    }
    let schema = try Schema(parsing: workload.schemaSources)
    #expect(schema.types.values.filter { $0.kind == .interface }.count == interfaces)
    #expect(schema.types.values.filter { $0.kind == .union }.count == unions)
  }

  @Test("interfaces and unions appear in operations as inline fragments and in responses as __typename")
  func abstractSelections() throws {
    let workload = try GeneratorTestSupport.make(seed: 3) { $0.operations = 12 }
    let text = workload.operations.map(\.documentText).joined()
    #expect(text.contains("... on "))
    #expect(text.contains("fragment "))
    #expect(text.contains("__typename"))
  }

  private func objectFields(of schema: Schema) -> [FieldDefinition] {
    schema.types.values.filter { $0.kind == .object && $0.name != "Query" }.flatMap { type in
      type.fields.values.filter { schema.type(named: $0.type.namedType).map { !$0.isLeaf } ?? false }
    }
  }
}
