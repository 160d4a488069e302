t: tuple
if len(t) > 0 and t[0] > 0:
    print(t[0] if t[0] < 100 else 100)
elif len(t) > 1:
    print(t[-1], t[-len(t)])
else:
    print(())
