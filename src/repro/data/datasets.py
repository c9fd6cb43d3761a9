"""Small image-classification datasets for the MNIST experiments, offline.

Used by the Omnigrok chapter (``book/liu2023_omnigrok``: MNIST landscape and grokking with a large init,
Omnigrok §3 and KindXiaoming/Omnigrok mnist/) and the transformer-and-images chapter
(``book/liu2022_transformer_and_images``: Liu et al. 2022 Fig. 8, App. J).

The book cannot download at run time, so three sources are supported:

* ``source="digits"`` — scikit-learn's bundled ``load_digits()``: 1797 grey 8×8 images of the digits
  0–9 (values 0–16), shipped inside the scikit-learn wheel. **A substitute dataset**, not MNIST:
  smaller images (64 inputs instead of 784), fewer samples, easier. Figures made with it must say
  "substitute dataset".
* ``source="mnist"`` — the four standard MNIST IDX files (``train-images-idx3-ubyte`` etc., plain or
  ``.gz``) in the directory ``path``; the paper's dataset, for the paper scale.
* ``source="idx"`` — any directory with the same four IDX files, e.g. Fashion-MNIST from the Debian
  package ``dataset-fashion-mnist`` (:data:`DEBIAN_FASHION_MNIST_DIR`); a shape-faithful substitute.

Which samples are used (``data_seed``): with ``data_seed=0`` the training set is the *first*
``n_train`` samples of the training pool, as the official code does (``Subset(train, range(1000))``,
Liu et al. 2022 App. J), and the test set the first ``n_test`` of the test pool. Any other seed draws both
subsets at random with ``numpy.random.RandomState(data_seed)``. For ``digits`` there is one pool of
1797 images: the test set is taken from the images not used for training.

Inputs are flattened and scaled to [0, 1] (MNIST: /255, as torchvision's ``ToTensor``; digits: /16).
Targets: one-hot vectors for ``loss="mse"`` (the official ``nn.MSELoss`` against one-hot labels,
Omnigrok mnist/grokking/mnist-grokking.ipynb) or class labels for ``loss="ce"``.

The IDX reader/writer (:func:`read_idx`, :func:`write_idx`) implement the format of LeCun's MNIST
page: two zero bytes, a type code, the number of dimensions, big-endian int32 sizes, then the data.
"""
from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import torch

from repro.core.files import write_bytes_atomic
from repro.core.validation import check_choice, check_int
from repro.data.tasks import TaskData

SOURCES = ("digits", "mnist", "idx")
LOSSES = ("mse", "ce")
N_CLASSES = 10
DEBIAN_FASHION_MNIST_DIR = "/usr/share/datasets/fashion-mnist"  # `apt-get install dataset-fashion-mnist`

# IDX type codes -> big-endian numpy dtypes (LeCun's MNIST page)
_IDX_DTYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
_IDX_CODES = {np.dtype(v).newbyteorder("=").str: k for k, v in _IDX_DTYPES.items()}

# The four files of an MNIST-style directory; the dotted names are a common variant of the same files.
_IDX_FILES = {
    "train_images": ("train-images-idx3-ubyte", "train-images.idx3-ubyte"),
    "train_labels": ("train-labels-idx1-ubyte", "train-labels.idx1-ubyte"),
    "test_images": ("t10k-images-idx3-ubyte", "t10k-images.idx3-ubyte"),
    "test_labels": ("t10k-labels-idx1-ubyte", "t10k-labels.idx1-ubyte"),
}


def _open(path: Path):
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def read_idx(path) -> np.ndarray:
    """The array stored in an IDX file (plain, or gzip-compressed when the name ends in ``.gz``).

    Raises ``ValueError`` naming the file when the magic number, type code or size does not match.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"path={str(path)!r}: no such IDX file.")
    try:
        with _open(path) as f:
            raw = f.read()
    except (OSError, EOFError) as err:  # e.g. a truncated or non-gzip '.gz'
        raise ValueError(f"path={str(path)!r} could not be read as an IDX file: {err}") from err
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0:
        raise ValueError(f"path={str(path)!r} is not an IDX file: bad magic number (must start with two zero bytes).")
    code, ndim = raw[2], raw[3]
    if code not in _IDX_DTYPES:
        raise ValueError(
            f"path={str(path)!r} has IDX type code 0x{code:02X}; allowed: "
            + ", ".join(f"0x{c:02X}" for c in _IDX_DTYPES) + "."
        )
    if ndim < 1:
        raise ValueError(f"path={str(path)!r} declares {ndim} dimensions; an IDX array needs at least 1.")
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise ValueError(f"path={str(path)!r} is truncated: its header declares {ndim} dimensions.")
    shape = tuple(int(s) for s in np.frombuffer(raw, dtype=">i4", count=ndim, offset=4))
    dtype = np.dtype(_IDX_DTYPES[code])
    expected = header + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) != expected:
        raise ValueError(
            f"path={str(path)!r} has {len(raw)} bytes but its header (shape {shape}, {dtype.name}) "
            f"needs {expected}: the file is truncated or not an IDX file."
        )
    data = np.frombuffer(raw, dtype=dtype, offset=header).reshape(shape)
    return data.astype(dtype.newbyteorder("="))  # native byte order, writable copy


def write_idx(path, array) -> None:
    """Write ``array`` as an IDX file (gzip-compressed when the name ends in ``.gz``), atomically."""
    path = Path(path)
    array = np.asarray(array)
    key = array.dtype.newbyteorder("=").str
    if key not in _IDX_CODES:
        raise ValueError(
            f"array of dtype {array.dtype} cannot be written as IDX: use uint8, int8, int16, int32, float32 or float64."
        )
    if array.ndim < 1 or array.ndim > 255:
        raise ValueError(f"array with {array.ndim} dimensions cannot be written as IDX: use 1 to 255 dimensions.")
    header = bytes([0, 0, _IDX_CODES[key], array.ndim]) + np.asarray(array.shape, dtype=">i4").tobytes()
    payload = header + np.ascontiguousarray(array, dtype=_IDX_DTYPES[_IDX_CODES[key]]).tobytes()
    if path.suffix == ".gz":
        payload = gzip.compress(payload, mtime=0)
    write_bytes_atomic(path, payload)


def _find_idx_file(directory: Path, kind: str) -> Path:
    for stem in _IDX_FILES[kind]:
        for name in (stem, stem + ".gz"):
            if (directory / name).is_file():
                return directory / name
    raise FileNotFoundError(
        f"path={str(directory)!r} has no {kind.replace('_', ' ')} file: expected one of "
        + ", ".join(f"{s}[.gz]" for s in _IDX_FILES[kind])
        + f". MNIST-style directories hold the four standard IDX files (for Fashion-MNIST: "
        f"`apt-get install dataset-fashion-mnist`, then path={DEBIAN_FASHION_MNIST_DIR!r})."
    )


def load_idx_directory(path) -> dict[str, np.ndarray]:
    """The four arrays of an MNIST-style IDX directory, checked for consistent shapes and labels."""
    if path is None:
        raise ValueError("path=None is not allowed for an IDX source: give the directory with the four MNIST-style IDX files.")
    directory = Path(path)
    if not directory.is_dir():
        raise FileNotFoundError(f"path={str(directory)!r} is not a directory with MNIST-style IDX files.")
    out = {kind: read_idx(_find_idx_file(directory, kind)) for kind in _IDX_FILES}
    for split in ("train", "test"):
        images, labels = out[f"{split}_images"], out[f"{split}_labels"]
        if images.ndim != 3 or labels.ndim != 1 or images.shape[0] != labels.shape[0]:
            raise ValueError(
                f"path={str(directory)!r}: {split} images have shape {images.shape} and labels {labels.shape}; "
                "need (N, rows, cols) images and N labels."
            )
        if labels.size and (labels.min() < 0 or labels.max() >= N_CLASSES):
            raise ValueError(f"path={str(directory)!r}: {split} labels must lie in 0..{N_CLASSES - 1}.")
    if out["train_images"].shape[1:] != out["test_images"].shape[1:]:
        raise ValueError(f"path={str(directory)!r}: train and test images differ in size.")
    return out


def _subset(n_pool: int, n: int, data_seed: int, rng: np.random.RandomState | None, exclude=None) -> np.ndarray:
    """The first ``n`` of the pool (data_seed 0, official) or a random draw; ``exclude`` is left out."""
    pool = np.arange(n_pool, dtype=np.int64)
    if exclude is not None:
        pool = np.setdiff1d(pool, exclude)
    if data_seed == 0:
        return pool[:n]
    return np.sort(rng.choice(pool, n, replace=False)).astype(np.int64)


def _check_count(name: str, value, available: int, what: str) -> None:
    check_int(name, value, minimum=1)
    if value > available:
        raise ValueError(f"{name}={value} is not allowed: {what} has only {available} samples.")


def image_task_data(
    source: str = "digits",
    path=None,
    n_train: int = 1000,
    n_test: int | None = None,
    data_seed: int = 0,
    loss: str = "mse",
) -> TaskData:
    """A 10-class image dataset as :class:`~repro.data.tasks.TaskData`, usable by :func:`repro.training.trainer.train`.

    ``inputs`` are float32 ``(n_train + n_test, d_in)`` (flattened, in [0, 1]); training samples come
    first (``train_idx``), test samples after them (``val_idx``). ``n_test=None`` takes every available
    test image (digits: all images not used for training; MNIST-style: the 10 000 test images).
    ``source="digits"`` is a **substitute dataset** for MNIST (see the module docstring).
    """
    check_choice("source", source, SOURCES)
    check_choice("loss", loss, LOSSES)
    check_int("data_seed", data_seed, minimum=0)
    rng = np.random.RandomState(data_seed)
    if source == "digits":
        if path is not None:
            raise ValueError(f"path={path!r} is not allowed with source='digits': the digits ship inside scikit-learn.")
        from sklearn.datasets import load_digits

        digits = load_digits()
        images = digits.data.astype(np.float32) / 16.0  # pixel values 0..16
        labels = digits.target.astype(np.int64)
        _check_count("n_train", n_train, len(labels) - 1, "the digits dataset (leaving >= 1 for testing)")
        train = _subset(len(labels), n_train, data_seed, rng)
        available = len(labels) - n_train
        n_test = available if n_test is None else n_test
        _check_count("n_test", n_test, available, f"the digits dataset after {n_train} training images")
        test = _subset(len(labels), n_test, data_seed, rng, exclude=train)
        x = np.concatenate([images[train], images[test]])
        y = np.concatenate([labels[train], labels[test]])
        shape = (8, 8)
    else:
        arrays = load_idx_directory(path)
        _check_count("n_train", n_train, len(arrays["train_labels"]), f"the training set in path={str(path)!r}")
        n_test = len(arrays["test_labels"]) if n_test is None else n_test
        _check_count("n_test", n_test, len(arrays["test_labels"]), f"the test set in path={str(path)!r}")
        train = _subset(len(arrays["train_labels"]), n_train, data_seed, rng)
        test = _subset(len(arrays["test_labels"]), n_test, data_seed, rng)
        scale = 255.0 if arrays["train_images"].dtype == np.uint8 else 1.0
        shape = tuple(arrays["train_images"].shape[1:])

        def flat(images):
            return images.reshape(len(images), -1).astype(np.float32) / np.float32(scale)

        x = np.concatenate([flat(arrays["train_images"][train]), flat(arrays["test_images"][test])])
        y = np.concatenate([arrays["train_labels"][train], arrays["test_labels"][test]]).astype(np.int64)
        if float(x.min()) < 0 or float(x.max()) > 1:
            raise ValueError(f"path={str(path)!r}: pixel values must lie in [0, 255] (uint8) or [0, 1] (floats).")
    labels_t = torch.as_tensor(y)
    n_tr = len(train)
    targets = torch.nn.functional.one_hot(labels_t, N_CLASSES).to(torch.float32) if loss == "mse" else None
    return TaskData(
        inputs=torch.as_tensor(x),
        labels=labels_t,
        n_classes=N_CLASSES,
        train_idx=np.arange(n_tr, dtype=np.int64),
        val_idx=np.arange(n_tr, len(y), dtype=np.int64),
        loss=loss,
        targets=targets,
        accuracy="argmax",
        meta={
            "source": source,
            "path": None if path is None else str(path),
            "image_shape": shape,
            "substitute": source != "mnist",
            "n_train": n_tr,
            "n_test": len(y) - n_tr,
            "data_seed": data_seed,
        },
    )
