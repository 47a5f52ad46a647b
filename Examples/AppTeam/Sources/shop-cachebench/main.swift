import CachebenchCLI
import Foundation
import GraphQLLanguage
import NormalizedCache
import ShopCache
import Workloads

/// Products are keyed by their SKU, by a function rather than a schema extension: the schema
/// is generated from the server and must not be edited.
let productsBySKU: CacheKeyResolver = { type, object in
  guard type.name == "Product", let sku = object.string("sku") else { return nil }
  return CacheKeyInfo(id: sku)
}

/// `product(sku:)` reads `Product:<sku>` straight from the cache, without a request.
struct ProductLookup: FieldPolicyProvider {
  func cacheKey(for field: FieldPolicyField, inputData: JSONObject, path: [String]) -> CacheKeyInfo? {
    guard field.name == "product", case .string(let sku)? = inputData["sku"] else { return nil }
    return CacheKeyInfo(id: sku)
  }
}

var registry = Registry.builtIn
registry.resolvers.register("sku", productsBySKU)
registry.fieldPolicyProviders.register("product-by-sku", ProductLookup())

// The app's own store, by the name workload files give it: `{"kind": "lru-dictionary",
// "maxSizeBytes": "50%"}`. It reads the budget keys every bounded store reads, and refuses what
// it does not do.
registry.stores.register("lru-dictionary") { options throws(WorkloadError) in
  let budget = try options.budget(recordOverhead: LRUDictionaryStore.recordOverheadBytes)
  if let budget, budget.policy != .lru { throw options.error("policy", "the shop's store evicts lru only") }
  if budget?.expireAfterSteps != nil { throw options.error("expireAfterSteps", "the shop's store does not expire records") }
  let unbounded = StoreMaker(description: "lru-dictionary") { _ in LRUDictionaryStore() }
  guard budget != nil else { return unbounded }
  return StoreMaker(description: "lru-dictionary", budget: budget) { environment in
    LRUDictionaryStore(budget: try environment.budget(budget, unbounded: unbounded))
  }
}

// Every command of cachebench: `swift run shop-cachebench run Workloads/shop.json`.
exit(Cachebench.main(registry: registry))
