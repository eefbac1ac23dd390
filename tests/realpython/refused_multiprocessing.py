# expect: error ImportError
# isolation: sandbox
# multiprocessing is refused.
from multiprocessing import Pool
