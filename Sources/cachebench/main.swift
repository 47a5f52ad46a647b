print("cachebench")
