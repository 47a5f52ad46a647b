import Generator
import NormalizedCache
import Testing

@Suite("Duplication, pools and skew")
struct GeneratorDuplicationTests {
  @Test(
    "duplication 0 gives one record per object under typePolicy (object ratio exactly 1)",
    arguments: [1, 2, 3] as [UInt64])
  func noDuplication(seed: UInt64) throws {
    let workload = try GeneratorTestSupport.make(seed: seed) {
      $0.duplication = 0
      $0.responses = 20
      $0.depth = 4
    }
    let written = try GeneratorTestSupport.write(workload, strategy: .typePolicy)
    #expect(written.objects > 500)
    #expect(written.objects == written.records)
    // Identities are unique across types too, so keys grouped by interface stay distinct.
    for resolver in [BuiltInResolvers.id, BuiltInResolvers.interfaceGroup] {
      let programmatic = try GeneratorTestSupport.write(workload, strategy: .programmatic(resolver))
      #expect(programmatic.objects == programmatic.records)
    }
  }

  @Test("the object ratio rises strictly across duplication 0, 0.5 and 0.9")
  func ratioRisesWithDuplication() throws {
    var ratios: [Double] = []
    for duplication in [0, 0.5, 0.9] {
      let workload = try GeneratorTestSupport.make(seed: 3) {
        $0.duplication = duplication
        $0.responses = 20
      }
      ratios.append(try GeneratorTestSupport.write(workload, strategy: .typePolicy).objectRatio)
    }
    #expect(ratios[0] == 1)
    #expect(ratios[0] < ratios[1] && ratios[1] < ratios[2], "\(ratios)")
  }

  @Test("a higher Zipf exponent reuses fewer distinct entities at the same duplication")
  func zipfConcentratesReuse() throws {
    var records: [Int] = []
    for zipf in [0, 1, 3.0] {
      let workload = try GeneratorTestSupport.make(seed: 4) {
        $0.duplication = 0.9
        $0.poolSize = 200
        $0.zipf = zipf
      }
      records.append(try GeneratorTestSupport.write(workload, strategy: .typePolicy).records)
    }
    #expect(records[0] > records[1] && records[1] > records[2], "\(records)")
  }

  @Test("a larger pool gives more distinct entities at the same duplication")
  func poolSizeBoundsReuse() throws {
    var records: [Int] = []
    for poolSize in [2, 20, 2000] {
      let workload = try GeneratorTestSupport.make(seed: 5) {
        $0.duplication = 0.9
        $0.zipf = 0
        $0.poolSize = poolSize
      }
      records.append(try GeneratorTestSupport.write(workload, strategy: .typePolicy).records)
    }
    #expect(records[0] < records[1] && records[1] < records[2], "\(records)")
  }
}
