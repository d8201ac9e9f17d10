from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="JobPauseState")


@_attrs_define
class JobPauseState:
    """Whether a job is paused.

    Attributes:
        job (str): Job name.
        paused (bool): Whether it is paused now.
    """

    job: str
    paused: bool

    def to_dict(self) -> dict[str, Any]:
        job = self.job

        paused = self.paused

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job": job,
                "paused": paused,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        job = d.pop("job")

        paused = d.pop("paused")

        job_pause_state = cls(
            job=job,
            paused=paused,
        )

        return job_pause_state
