import CachebenchCLI
import Foundation
import GraphQLLanguage
import NormalizedCache
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

// Every command of cachebench: `swift run shop-cachebench run Workloads/shop.json`.
exit(Cachebench.main(registry: registry))
