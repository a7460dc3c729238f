"""My own queue for the BFS homework (data structures course)."""


class Queue:
    def __init__(self):
        self.items = []

    def put(self, item):
        self.items.append(item)

    def get(self):
        return self.items.pop(0)

    def empty(self):
        return not self.items


print("my queue module loaded")
