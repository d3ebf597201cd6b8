// swift-tools-version: 6.2
// Fuzz targets for the flow file readers (libFuzzer). `make fuzz` builds them with
// `-sanitize=fuzzer,address` and runs each for a bounded time from the seed corpus in `Corpus/`.
import PackageDescription

import struct Foundation.URL

// The root package is a path dependency, whose identity is its folder's name: derive it.
let rootIdentity = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "FlowstateFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "../")],
    targets: [
        .executableTarget(name: "FuzzSpec", dependencies: [.product(name: "FlowGraph", package: rootIdentity), .product(name: "FlowSpec", package: rootIdentity)]),
        .executableTarget(name: "FuzzSimulate", dependencies: [.product(name: "FlowGraph", package: rootIdentity), .product(name: "FlowSpec", package: rootIdentity)]),
        .executableTarget(name: "FuzzSCXML", dependencies: [.product(name: "FlowGraph", package: rootIdentity), .product(name: "FlowSpec", package: rootIdentity)]),
    ],
    swiftLanguageModes: [.v6]
)
