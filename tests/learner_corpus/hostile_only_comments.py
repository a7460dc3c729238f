# Lesson 4 softmax exercise
#
# def softmax(x, axis=-1):
#     m = max(x)
#     e = [math.exp(v - m) for v in x]
#     return [v / sum(e) for v in e]
#
# I'll finish this after lunch
