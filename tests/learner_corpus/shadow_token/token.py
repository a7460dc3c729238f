# chapter 1 leftovers: split a sentence into tokens
sentence = "the cat sat on the mat"
tokens = sentence.split()
print(len(tokens), "tokens")
