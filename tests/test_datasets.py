"""Tests of repro.data.datasets (the image data of the Omnigrok chapter, Liu, Michaud & Tegmark 2023 §3.1): the IDX
format, MNIST from IDX files and the scikit-learn digits substitute."""
import numpy as np
import pytest
import torch

from repro.data.datasets import image_task_data, read_idx, write_idx

# ---------------------------------------------------------------- IDX and datasets


@pytest.mark.parametrize("suffix", ["", ".gz"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
def test_idx_roundtrip(tmp_path, suffix, dtype):
    arr = (np.arange(2 * 3 * 4) % 250).astype(dtype).reshape(2, 3, 4)
    path = tmp_path / f"x-idx3{suffix}"
    write_idx(path, arr)
    out = read_idx(path)
    assert out.dtype == arr.dtype and out.shape == arr.shape
    np.testing.assert_array_equal(out, arr)
    assert not list(tmp_path.glob("*.tmp"))  # atomic write left no temp file


def test_idx_bytes_match_the_format(tmp_path):
    path = tmp_path / "labels"
    write_idx(path, np.array([7, 2, 1], dtype=np.uint8))
    assert path.read_bytes() == bytes([0, 0, 8, 1, 0, 0, 0, 3, 7, 2, 1])


def test_idx_bad_files(tmp_path):
    bad = tmp_path / "bad"
    bad.write_bytes(bytes([1, 2, 8, 1, 0, 0, 0, 1, 5]))
    with pytest.raises(ValueError, match="magic"):
        read_idx(bad)
    short = tmp_path / "short"
    short.write_bytes(bytes([0, 0, 8, 1, 0, 0, 0, 5, 1, 2]))
    with pytest.raises(ValueError, match="truncated"):
        read_idx(short)
    code = tmp_path / "code"
    code.write_bytes(bytes([0, 0, 0x42, 1, 0, 0, 0, 1, 5]))
    with pytest.raises(ValueError, match="type code"):
        read_idx(code)
    with pytest.raises(FileNotFoundError, match="path="):
        read_idx(tmp_path / "missing")
    with pytest.raises(ValueError, match="dtype"):
        write_idx(tmp_path / "c", np.zeros(3, dtype=np.complex64))


def _mnist_dir(tmp_path, n_train=20, n_test=8, gz=True):
    rng = np.random.RandomState(0)
    suffix = ".gz" if gz else ""
    write_idx(tmp_path / f"train-images-idx3-ubyte{suffix}", rng.randint(0, 256, (n_train, 4, 4)).astype(np.uint8))
    write_idx(tmp_path / f"train-labels-idx1-ubyte{suffix}", (np.arange(n_train) % 10).astype(np.uint8))
    write_idx(tmp_path / f"t10k-images-idx3-ubyte{suffix}", rng.randint(0, 256, (n_test, 4, 4)).astype(np.uint8))
    write_idx(tmp_path / f"t10k-labels-idx1-ubyte{suffix}", (np.arange(n_test) % 10).astype(np.uint8))
    return tmp_path


@pytest.mark.parametrize("source", ["mnist", "idx"])
def test_image_task_data_from_idx(tmp_path, source):
    d = image_task_data(source, _mnist_dir(tmp_path), n_train=10, n_test=None)
    assert d.inputs.shape == (18, 16) and d.inputs.dtype == torch.float32
    assert 0 <= float(d.inputs.min()) and float(d.inputs.max()) <= 1
    np.testing.assert_array_equal(d.train_idx, np.arange(10))
    np.testing.assert_array_equal(d.val_idx, np.arange(10, 18))
    # data_seed 0: the first n_train images, as the official Subset(train, range(1000))
    raw = read_idx(tmp_path / "train-images-idx3-ubyte.gz")
    np.testing.assert_allclose(d.inputs[:10].numpy(), raw[:10].reshape(10, -1) / 255.0, rtol=1e-6)
    assert d.targets.shape == (18, 10) and torch.equal(d.targets.argmax(1), d.labels)
    assert image_task_data(source, tmp_path, n_train=5, loss="ce").targets is None


def test_image_task_data_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="path="):
        image_task_data("mnist", tmp_path, n_train=5)
    with pytest.raises(ValueError, match="path=None"):
        image_task_data("mnist", None)
    with pytest.raises(ValueError, match="source"):
        image_task_data("cifar")
    with pytest.raises(ValueError, match="n_train"):
        image_task_data("mnist", _mnist_dir(tmp_path), n_train=21)
    with pytest.raises(ValueError, match="loss"):
        image_task_data("digits", loss="bce")


def test_digits_substitute_shapes_and_determinism():
    d = image_task_data("digits", n_train=1000)
    assert d.inputs.shape == (1797, 64) and d.n_classes == 10
    assert len(d.train_idx) == 1000 and len(d.val_idx) == 797
    assert float(d.inputs.max()) == 1.0 and float(d.inputs.min()) == 0.0
    assert d.meta["substitute"] is True
    again = image_task_data("digits", n_train=1000)
    assert torch.equal(d.inputs, again.inputs) and torch.equal(d.labels, again.labels)
    a = image_task_data("digits", n_train=100, n_test=50, data_seed=3)
    b = image_task_data("digits", n_train=100, n_test=50, data_seed=3)
    c = image_task_data("digits", n_train=100, n_test=50, data_seed=4)
    assert torch.equal(a.inputs, b.inputs) and not torch.equal(a.inputs, c.inputs)
    assert a.inputs.shape == (150, 64)


def test_idx_directory_mixes_plain_and_gz_files_and_checks_consistency(tmp_path):
    from repro.data.datasets import load_idx_directory

    _mnist_dir(tmp_path, gz=False)
    (tmp_path / "t10k-labels-idx1-ubyte").rename(tmp_path / "plain")  # replace one file by its .gz form
    write_idx(tmp_path / "t10k-labels-idx1-ubyte.gz", read_idx(tmp_path / "plain"))
    out = load_idx_directory(tmp_path)
    assert {k: v.shape for k, v in out.items()} == {"train_images": (20, 4, 4), "train_labels": (20,),
                                                      "test_images": (8, 4, 4), "test_labels": (8,)}
    write_idx(tmp_path / "train-labels-idx1-ubyte", np.full(20, 10, dtype=np.uint8))  # label 10: not a digit
    with pytest.raises(ValueError, match="train labels must lie in 0..9"):
        load_idx_directory(tmp_path)
    write_idx(tmp_path / "train-labels-idx1-ubyte", np.zeros(19, dtype=np.uint8))  # 20 images, 19 labels
    with pytest.raises(ValueError, match="train images have shape"):
        load_idx_directory(tmp_path)
    write_idx(tmp_path / "train-labels-idx1-ubyte", np.zeros(20, dtype=np.uint8))
    write_idx(tmp_path / "t10k-images-idx3-ubyte", np.zeros((8, 5, 5), dtype=np.uint8))
    with pytest.raises(ValueError, match="differ in size"):
        load_idx_directory(tmp_path)
    (tmp_path / "t10k-images-idx3-ubyte").unlink()
    with pytest.raises(FileNotFoundError, match="no test images file"):
        load_idx_directory(tmp_path)
