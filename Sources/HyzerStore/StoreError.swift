import Foundation

public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The record does not exist, e.g. an unknown round id in a URL.
    case notFound(String)
    /// A stored value cannot be read back: the file was changed outside Hyzer.
    case corrupt(String)

    public var description: String {
        switch self {
        case .notFound(let what): "\(what) was not found."
        case .corrupt(let detail): "The store holds a damaged value: \(detail)"
        }
    }
}
