enum _PHyzerSync {}
