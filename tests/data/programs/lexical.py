# Lexical freedom: comments, blank lines, two-space indentation, continuation in parens,
# free spacing, trailing commas.
x:int   # an input without spaces around the colon
t : tuple

def  f( a:int ,b : tuple )->int :
  # two-space indentation
  if a>0 :

    return (a +
            len(b))   # continued inside parentheses
  return  -a


r=f(x,t)
u = (1,
     2,
     x,
     )
v = ( x  ,)
w=(
)
s = (x
     * 2
     - r)
