print("bgtrace")
