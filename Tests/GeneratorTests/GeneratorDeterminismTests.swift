import Generator
import GraphQLLanguage
import Testing

@Suite("Generator determinism")
struct GeneratorDeterminismTests {
  @Test("the same seed and knobs give identical schema, operations and response bytes")
  func sameSeedSameBytes() throws {
    let first = try GeneratorTestSupport.make(seed: 42)
    let second = try GeneratorTestSupport.make(seed: 42)
    #expect(first.schemaSDL == second.schemaSDL)
    #expect(first.extensionsSDL == second.extensionsSDL)
    #expect(first.operations == second.operations)
    #expect(first.responseCount == second.responseCount)
    for index in 0..<first.responseCount {
      let (a, b) = (first.response(at: index), second.response(at: index))
      #expect(a.bytes == b.bytes)
      #expect(a.variables == b.variables)
      #expect(a.operationName == b.operationName)
    }
  }

  @Test("a response is the same whatever was generated before it")
  func responsesOnDemand() throws {
    let workload = try GeneratorTestSupport.make(seed: 5)
    let inOrder = Array(workload.responses.map(\.bytes))
    let backwards = (0..<workload.responseCount).reversed().map { workload.response(at: $0).bytes }
    #expect(inOrder == Array(backwards.reversed()))
  }

  @Test("a different seed gives different schema and response bytes")
  func differentSeedDifferentBytes() throws {
    let first = try GeneratorTestSupport.make(seed: 1)
    let second = try GeneratorTestSupport.make(seed: 2)
    #expect(first.schemaSDL != second.schemaSDL)
    #expect(first.operations.map(\.documentText) != second.operations.map(\.documentText))
    #expect(Array(first.responses.map(\.bytes)) != Array(second.responses.map(\.bytes)))
  }

  /// Pins the output across processes (Swift seeds its `Hasher` per process, so any dictionary
  /// or set order leaking into the output would change this digest from run to run) and across
  /// commits. A deliberate change of the generator's output updates the constant.
  @Test("a fixed seed gives a fixed digest of the whole workload")
  func goldenDigest() throws {
    let workload = try GeneratorTestSupport.make(seed: 2024)
    var digest: UInt64 = 0xCBF2_9CE4_8422_2325
    func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
      for byte in bytes {
        digest ^= UInt64(byte)
        digest &*= 0x0000_0100_0000_01B3
      }
    }
    feed(workload.schemaSDL.utf8)
    feed(workload.extensionsSDL.utf8)
    for operation in workload.operations { feed(operation.documentText.utf8) }
    for response in workload.responses {
      feed(response.bytes)
      feed(JSONWriter.data(.object(response.variables)))
    }
    // Renew when the generator's output changes on purpose; last: keyed members of abstract fields
    // always select their key fields.
    #expect(String(digest, radix: 16) == "3b8f645726572bb")
  }
}
